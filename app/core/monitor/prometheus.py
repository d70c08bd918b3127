"""The monitor's numbers in Prometheus text format, for the API server's `GET /metrics`.

`ServerMetrics` owns its own registry (never prometheus_client's global one, so two
servers or a test do not share counts) with what a server operator watches: requests by
endpoint and status, the queue length, tokens in and out, and histograms of time to first
token and tokens/s. It also exports the latest resource sample (CPU, RAM, swap, and per
GPU its use, VRAM, temperature, power and energy) and the alerts now active, read at
scrape time from what the monitor last saw. The server calls the `observe_*` methods and
serves `render()` with `CONTENT_TYPE`:

    metrics = ServerMetrics()
    @app.get("/metrics")
    def scrape() -> Response:
        return Response(metrics.render(), media_type=metrics.CONTENT_TYPE)
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable, Iterator, Sequence

from prometheus_client import CONTENT_TYPE_LATEST, CollectorRegistry, Counter, Gauge, Histogram, generate_latest
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily, Metric
from prometheus_client.registry import Collector

from app.core.monitor.alerts import Alert, AlertKind
from app.core.monitor.samples import ResourceSample
from app.core.types.stats import ReplyStats

PREFIX = "glassbox"
TTFT_BUCKETS = (0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 5.0, 10.0, 30.0, 60.0)
SPEED_BUCKETS = (1.0, 2.0, 5.0, 10.0, 20.0, 50.0, 100.0, 200.0, 500.0, 1000.0)


class ServerMetrics:
    CONTENT_TYPE = CONTENT_TYPE_LATEST

    def __init__(self) -> None:
        self.registry = CollectorRegistry()
        self.requests = Counter(
            f"{PREFIX}_requests",
            "API requests answered, by endpoint and HTTP status",
            ("endpoint", "status"),
            registry=self.registry,
        )
        self.queue_length = Gauge(
            f"{PREFIX}_queue_length",
            "Requests waiting for the model (the window's replies included)",
            registry=self.registry,
        )
        self.tokens = Counter(
            f"{PREFIX}_tokens",
            "Tokens processed: prompt tokens in, generated tokens out",
            ("direction",),
            registry=self.registry,
        )
        self.time_to_first_token = Histogram(
            f"{PREFIX}_time_to_first_token_seconds",
            "Seconds from a request to its first generated token",
            buckets=TTFT_BUCKETS,
            registry=self.registry,
        )
        self.tokens_per_second = Histogram(
            f"{PREFIX}_generation_tokens_per_second",
            "Generation speed of each reply",
            buckets=SPEED_BUCKETS,
            registry=self.registry,
        )
        self._resources = _ResourceCollector()
        self.registry.register(self._resources)

    def observe_request(self, endpoint: str, status: int) -> None:
        self.requests.labels(endpoint=endpoint, status=str(status)).inc()

    def set_queue_length(self, length: int) -> None:
        self.queue_length.set(length)

    def follow_queue(self, length: Callable[[], int]) -> None:
        """Read the queue length from `length()` at every scrape instead of a value set by hand."""
        self.queue_length.set_function(length)

    def observe_reply(self, stats: ReplyStats, time_to_first_token_s: float | None = None) -> None:
        """A reply ended: its tokens, and its speed when it wrote any.

        `time_to_first_token_s` is the time the caller saw (the server counts from the request's
        arrival, waiting in the queue included); without it, the engine's own measure is used."""
        self.tokens.labels(direction="in").inc(stats.prompt_tokens)
        self.tokens.labels(direction="out").inc(stats.completion_tokens)
        if stats.completion_tokens:
            ttft = stats.time_to_first_token_s if time_to_first_token_s is None else time_to_first_token_s
            self.time_to_first_token.observe(ttft)
        if stats.completion_tokens > 1 and stats.generation_tokens_per_s > 0:
            self.tokens_per_second.observe(stats.generation_tokens_per_s)

    def observe_sample(self, sample: ResourceSample) -> None:
        self._resources.set_sample(sample)

    def set_alerts(self, alerts: Iterable[Alert]) -> None:
        self._resources.set_alerts(list(alerts))

    def render(self) -> bytes:
        """The text a Prometheus server scrapes."""
        return generate_latest(self.registry)


class _ResourceCollector(Collector):
    """The latest sample and alerts, as gauges built at scrape time (a GPU that left has no stale series)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._sample: ResourceSample | None = None
        self._alerts: Sequence[Alert] = ()

    def set_sample(self, sample: ResourceSample) -> None:
        with self._lock:
            self._sample = sample

    def set_alerts(self, alerts: Sequence[Alert]) -> None:
        with self._lock:
            self._alerts = tuple(alerts)

    def describe(self) -> Iterable[Metric]:
        return ()  # built at scrape time; nothing to check for clashes at registration

    def collect(self) -> Iterator[Metric]:
        with self._lock:
            sample, alerts = self._sample, self._alerts
        active = GaugeMetricFamily(f"{PREFIX}_alert_active", "1 while an alert of this kind is raised", labels=["kind"])
        raised = {alert.kind for alert in alerts}
        for kind in AlertKind:
            active.add_metric([kind.value], 1.0 if kind in raised else 0.0)
        yield active
        if sample is None:
            return
        yield from _process_metrics(sample)
        yield from _gpu_metrics(sample)


def _gauge(name: str, documentation: str, value: float | None) -> Iterator[Metric]:
    if value is not None:
        yield GaugeMetricFamily(f"{PREFIX}_{name}", documentation, value=value)


def _process_metrics(sample: ResourceSample) -> Iterator[Metric]:
    yield from _gauge(
        "app_cpu_percent", "CPU use of Glassbox and its engine process, % of all cores", sample.cpu_app_percent
    )
    yield from _gauge("system_cpu_percent", "CPU use of the whole machine, %", sample.cpu_total_percent)
    yield from _gauge("app_resident_bytes", "Resident memory of Glassbox and its engine process", sample.ram_app)
    yield from _gauge("memory_available_bytes", "RAM available to programs", sample.ram_available)
    yield from _gauge("memory_total_bytes", "RAM installed", sample.ram_total)
    yield from _gauge("swap_used_bytes", "Swap in use", sample.swap_used)


def _gpu_metrics(sample: ResourceSample) -> Iterator[Metric]:
    labels = ["gpu", "name"]
    utilization = GaugeMetricFamily(f"{PREFIX}_gpu_utilization_percent", "GPU use, %", labels=labels)
    total = GaugeMetricFamily(f"{PREFIX}_gpu_memory_total_bytes", "VRAM of the GPU", labels=labels)
    used = GaugeMetricFamily(
        f"{PREFIX}_gpu_memory_used_bytes",
        "VRAM in use, by Glassbox (app) or other programs (others)",
        labels=[*labels, "owner"],
    )
    temperature = GaugeMetricFamily(f"{PREFIX}_gpu_temperature_celsius", "GPU temperature", labels=labels)
    power = GaugeMetricFamily(f"{PREFIX}_gpu_power_watts", "GPU power draw", labels=labels)
    energy = CounterMetricFamily(
        f"{PREFIX}_gpu_energy_joules", "GPU energy since the driver loaded (NVML's counter)", labels=labels
    )
    for gpu in sample.gpus:
        key = [str(gpu.index), gpu.name]
        total.add_metric(key, gpu.total)
        if gpu.this_process is not None:
            used.add_metric([*key, "app"], gpu.this_process)
            used.add_metric([*key, "others"], gpu.other_processes)
        else:
            used.add_metric([*key, "all"], gpu.used)
        if gpu.utilization_percent is not None:
            utilization.add_metric(key, gpu.utilization_percent)
        if gpu.temperature_c is not None:
            temperature.add_metric(key, gpu.temperature_c)
        if gpu.power_w is not None:
            power.add_metric(key, gpu.power_w)
        if gpu.energy_j is not None:
            energy.add_metric(key, gpu.energy_j)
    for family in (utilization, total, used, temperature, power, energy):
        if family.samples:
            yield family
