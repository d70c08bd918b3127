"""What the machine does over time, said before it hurts.

- clock.py, samples.py, sampler.py: a resource sample about once a second (CPU, RAM and swap
  through psutil; each NVIDIA GPU's use, VRAM, temperature, power and energy through NVML),
  with the window's process and its children (the engine) counted as this app.
- timeline.py: the session's samples in a bounded buffer, with the replies as spans on the
  same time axis; csv_export.py writes it one row per sample.
- speed_history.py: each model's usual tokens/s and time to first token on this machine.
- alerts.py: thresholds with hysteresis, one alert (and one log line) per episode.
- degradation.py: when a model does not fit, a more heavily quantized variant of it (in the
  library, or to download), as the memory planner sees it; idle.py: when to free an idle model.
- prometheus.py: the counters in Prometheus text, for the API server's `GET /metrics`.
"""
