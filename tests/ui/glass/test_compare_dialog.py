"""The Compare dialog asks for greedy, beam and seeded replies and shows each one's likelihood side by side."""

from __future__ import annotations

from PySide6.QtWidgets import QMainWindow
from pytestqt.qtbot import QtBot

from app.core.inference.compare import StrategyResult
from app.ui.glass.compare_dialog import CompareDialog, CompareRequest, add_compare_action

GREEDY = StrategyResult("greedy", "1. Red\n2. Blue", 10, -6.0, 30.0, 0.4)
BEAM = StrategyResult("beam width 3", "1. Red 2. Green", 10, -4.5, 20.0, 0.9)
SAMPLED = StrategyResult("sampled, seed 1", "Crimson, teal", 8, -12.0, 31.0, 0.3)


def dialog(qtbot: QtBot) -> CompareDialog:
    shown = CompareDialog()
    qtbot.addWidget(shown)
    return shown


def test_compare_asks_for_the_chosen_width_penalty_and_seeds(qtbot: QtBot) -> None:
    compare = dialog(qtbot)
    compare.width_box.setValue(6)
    compare.alpha_box.setValue(0.5)
    compare.seeds_box.setValue(2)
    with qtbot.waitSignal(compare.compareRequested) as asked:
        compare.run_button.click()
    request = asked.args[0]
    assert isinstance(request, CompareRequest)
    assert (request.beam.width, request.beam.alpha, request.seeds) == (6, 0.5, (1, 2))
    assert not compare.run_button.isEnabled() and compare.stop_button.isEnabled()
    with qtbot.waitSignal(compare.stopRequested):
        compare.stop_button.click()


def test_each_strategy_shows_its_log_probabilities_perplexity_length_and_speed(qtbot: QtBot) -> None:
    compare = dialog(qtbot)
    compare.request_comparison()
    for result in (GREEDY, BEAM, SAMPLED):
        compare.add_result(result)
    compare.finish()
    table = compare.table
    assert table.rowCount() == 3
    assert [table.item(1, c).text() for c in range(6)] == ["beam width 3", "-4.50", "-0.450", "1.57", "10", "20.0"]
    assert table.item(2, 6).text() == "Crimson, teal"
    assert table.item(0, 6).toolTip() == "1. Red\n2. Blue"
    # the reply the model finds most likely per token stands out
    assert [table.item(r, 2).font().bold() for r in range(3)] == [False, True, False]
    assert "3 strategies compared" in compare.status.text()
    assert compare.run_button.isEnabled()


def test_an_error_ends_the_comparison_with_its_message(qtbot: QtBot) -> None:
    compare = dialog(qtbot)
    compare.request_comparison()
    compare.finish(
        "Beam width 8 needs 2.00 GiB of RAM for its KV cache (4096 cells) and compute buffer, but 1.0 MiB is free."
    )
    assert "Beam width 8 needs" in compare.status.text()
    assert compare.run_button.isEnabled() and not compare.stop_button.isEnabled()


def test_the_chat_menu_entry_opens_the_dialog(qtbot: QtBot) -> None:
    window = QMainWindow()
    qtbot.addWidget(window)
    menu = window.menuBar().addMenu("&Chat")
    action, compare = add_compare_action(menu, window)
    assert action in menu.actions()
    action.trigger()
    assert compare.isVisible()
    compare.close()
