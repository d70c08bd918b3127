"""One user turn, from the saved user message to the reply, run as a list of steps.

A `Turn` owns the turn's one stop flag and sends exactly one end event: `finished` (a
ReplyDone, also for a stopped turn, with the text written so far) or `failed` (the message
and the text written so far). Its steps (today retrieve, plan the context window, generate,
with a thinking model's think inside generate; with tools, the tool rounds of tool_rounds.py:
generate, call, read, generate …; later read an image) are objects
in a list: each checks the stop flag before it starts and hands it down to whatever it waits on. Events leave through a
`TurnSink`; the window turns them into Qt signals (app/ui/turn), a test records them.
"""
