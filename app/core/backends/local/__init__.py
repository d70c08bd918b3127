"""The local llama.cpp backend: the engine in a child process, its wire protocol and its host."""
