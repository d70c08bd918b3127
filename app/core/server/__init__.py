"""The local OpenAI-compatible API server: the model Glassbox runs, served to other programs.

`ApiServer` (server.py) runs FastAPI on uvicorn in a thread of its own; `ModelQueue`
(model_queue.py) is the one thread that calls the model, in arrival order; `guard.py`
keeps it safe by default (loopback, API key, CORS, DNS rebinding); `endpoints.py` speaks
the OpenAI protocol with `openai_requests.py` and `openai_responses.py`; `request_log.py`
records every request for the window's Server panel.
"""
