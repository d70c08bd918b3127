"""The CSV export: one row per sample, the reply each fell in, a column group per GPU, blanks for "not measured"."""

from __future__ import annotations

import csv
import io
from pathlib import Path

import pytest

from app.core.monitor.csv_export import BASE_COLUMNS, GPU_COLUMNS, ExportError, export_csv, timeline_csv
from app.core.monitor.timeline import ReplyOutcome, SessionTimeline
from app.core.types.stats import ReplyStats
from tests.fakes.fake_machine import ENGINE_PID, FakeMachine
from tests.fakes.fake_pynvml import GIB, FakeGpu


def recorded(machine: FakeMachine, seconds: int, reply: tuple[float, float] | None = None) -> SessionTimeline:
    timeline = SessionTimeline(machine.session)
    sampler = machine.sampler()
    for _ in range(seconds):
        timeline.add(sampler.sample())
        machine.tick()
    if reply is not None:
        timeline.reply_started(at=reply[0])
        timeline.reply_ended(ReplyOutcome.FINISHED, ReplyStats(completion_tokens=3), at=reply[1])
    return timeline


def rows(text: str) -> list[dict[str, str]]:
    return list(csv.DictReader(io.StringIO(text)))


def test_the_csv_has_one_row_per_sample_and_marks_the_reply_each_fell_in() -> None:
    machine = FakeMachine()
    timeline = recorded(machine, 6, reply=(1.5, 3.5))

    table = rows(timeline_csv(timeline.samples(), timeline.spans()))

    assert len(table) == len(timeline) == 6
    assert [row["time_s"] for row in table] == ["0.000", "1.000", "2.000", "3.000", "4.000", "5.000"]
    assert [row["reply"] for row in table] == ["", "", "1", "1", "", ""]
    assert all(row["child_pids"] == str(ENGINE_PID) for row in table)
    assert table[0]["timestamp"].startswith("2023-11-1")  # the fake wall clock: 1.7e9 s after the epoch


def test_each_gpu_gets_its_own_columns_and_what_was_not_measured_stays_blank() -> None:
    machine = FakeMachine(
        gpus=[
            FakeGpu(total=8 * GIB, reserved=0, energy_mj=2_500, temperature_c=60),
            FakeGpu(total=12 * GIB, reserved=0, utilization=None, temperature_c=None, power_mw=None),
        ]
    )
    machine.set_vram(app=2 * GIB, others=1 * GIB)
    text = timeline_csv(recorded(machine, 2).samples())
    header = next(csv.reader(io.StringIO(text)))

    assert header == [*BASE_COLUMNS, *(f"gpu0_{c}" for c in GPU_COLUMNS), *(f"gpu1_{c}" for c in GPU_COLUMNS)]
    first, second = rows(text)
    assert first["cpu_total_percent"] == "" and second["cpu_total_percent"] != ""  # no interval before the first
    assert (second["gpu0_vram_app_bytes"], second["gpu0_vram_others_bytes"]) == (str(2 * GIB), str(1 * GIB))
    assert (second["gpu0_energy_j"], second["gpu0_temperature_c"]) == ("2.5", "60")
    assert (second["gpu1_utilization_percent"], second["gpu1_power_w"], second["gpu1_energy_j"]) == ("", "", "")
    assert second["gpu1_vram_total_bytes"] == str(12 * GIB)


def test_export_writes_the_file_and_counts_its_rows(tmp_path: Path) -> None:
    timeline = recorded(FakeMachine(), 4)
    target = tmp_path / "session.csv"

    assert export_csv(timeline, target) == 4
    assert len(rows(target.read_text(encoding="utf-8"))) == 4


def test_a_folder_that_cannot_be_written_is_a_clear_error(tmp_path: Path) -> None:
    blocked = tmp_path / "file-not-folder"
    blocked.write_text("x")
    with pytest.raises(ExportError, match=r"could not be saved to .*file-not-folder.*Choose a folder"):
        export_csv(recorded(FakeMachine(), 1), blocked / "session.csv")
