"""The translation sources and catalogs: complete, in step with the code, and compiled from what is committed."""

from __future__ import annotations

import importlib.util
import re
import shutil
import xml.etree.ElementTree as ET
from pathlib import Path
from types import ModuleType

import pytest

from tests.repo import REPO_ROOT

PLACEHOLDER = re.compile(r"\{\w+\}|%(?:n|L?\d)")  # fill()'s {name}, Qt's %1 … %9 (%L1) and plural %n
ZH_TS = REPO_ROOT / "resources" / "translations" / "glassbox_zh_CN.ts"


def _pipeline() -> ModuleType:
    spec = importlib.util.spec_from_file_location("glassbox_translations", REPO_ROOT / "packaging" / "translations.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _texts(translation: ET.Element) -> list[str]:
    """A translation's text, or each of its plural forms (`numerus` entries)."""
    forms = [form.text or "" for form in translation.iter("numerusform")]
    return forms or [translation.text or ""]


def _messages(ts: Path) -> list[tuple[str, str, ET.Element]]:
    """(context, source, translation element) of every entry."""
    entries = []
    for context in ET.parse(ts).getroot().iter("context"):
        name = context.findtext("name", "")
        for message in context.iter("message"):
            translation = message.find("translation")
            assert translation is not None
            entries.append((name, message.findtext("source", ""), translation))
    return entries


def test_every_catalog_source_is_listed() -> None:
    assert _pipeline().ts_files() == [ZH_TS]


@pytest.fixture(scope="module")
def refreshed_ts(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The committed .ts after pyside6-lupdate has read today's code: new texts would show as unfinished."""
    copy = tmp_path_factory.mktemp("ts") / ZH_TS.name
    shutil.copy2(ZH_TS, copy)
    _pipeline().update(copy)
    return copy


def test_the_chinese_catalog_has_no_unfinished_or_vanished_entry(refreshed_ts: Path) -> None:
    entries = _messages(refreshed_ts)
    assert len(entries) > 400
    unfinished = [f"{context}: {source}" for context, source, t in entries if t.get("type") or not all(_texts(t))]
    assert unfinished == []  # run `python packaging/translations.py update`, translate, then `compile`
    assert refreshed_ts.read_text(encoding="utf-8") == ZH_TS.read_text(encoding="utf-8")


def test_every_placeholder_of_a_source_is_in_its_translation() -> None:
    missing = [
        f"{context}: {source!r} -> {text!r}"
        for context, source, translation in _messages(ZH_TS)
        for text in _texts(translation)
        if set(PLACEHOLDER.findall(source)) != set(PLACEHOLDER.findall(text))
    ]
    assert missing == []


def test_the_placeholder_check_knows_every_kind_of_placeholder() -> None:
    source = "Loaded {name} in %1 s: %n token(s), %L2 MiB"
    assert set(PLACEHOLDER.findall(source)) == {"{name}", "%1", "%n", "%L2"}
    assert set(PLACEHOLDER.findall("已加载 {name}，用时 %1 秒：%n 个 Token")) != set(PLACEHOLDER.findall(source))


def test_the_core_texts_reach_the_catalog_through_their_marks(tmp_path: Path) -> None:
    """`update` hands lupdate the N_() templates of app/core (context CoreText), so they are translated too."""
    pipeline = _pipeline()
    texts = pipeline.core_texts()
    assert "Loading {name} was cancelled." in texts
    assert "end of text" in texts  # a stop reason
    assert len(texts) == len(set(texts)) > 150
    sample = tmp_path / "sample.py"
    sample.write_text('N_("Split over "\n   "two literals {n}.")\nother("not marked")\n', encoding="utf-8")
    assert pipeline.core_texts([sample]) == ["Split over two literals {n}."]


def test_every_core_text_has_its_translation() -> None:
    pipeline = _pipeline()
    marked = set(pipeline.core_texts())
    assert set(pipeline.translated_core_texts(ZH_TS)) == marked


def test_the_chinese_translation_is_chinese_and_uses_the_usual_terms() -> None:
    translations = {source: " ".join(_texts(translation)) for _context, source, translation in _messages(ZH_TS)}
    han = re.compile(r"[\u4e00-\u9fff]")
    words = re.compile(r"[a-z]{4}")
    placeholders = re.compile(r"\{\w+\}")  # "{server}: {reason}" has no words to translate
    untranslated = [s for s, t in translations.items() if words.search(placeholders.sub("", s)) and not han.search(t)]
    # names and formats stay as they are in every language
    assert set(untranslated) <= {
        "Glassbox",
        "llama.cpp",
        "JSON (*.json)",
        "Markdown (*.md)",
        "{title} — Glassbox",
        " tokens",
        "{speed} tok/s",
        "{speed} tokens/s",
        " (Glassbox {app})",
        "LM Studio",
        "Ollama",
        "Flash attention",  # the technique's name, as Chinese apps write it
    }
    assert translations["GPU layers"] == "GPU 层数"
    assert translations["Context window"] == "上下文窗口"
    assert translations["Quantization"] == "量化"
    assert translations["Time to first token"] == "首 Token 时间"
    assert "KV 缓存" in translations["KV cache"]
    assert "内存映射" in translations["weights (memory-mapped)"]
    assert "贪婪搜索" in translations["Sampling: greedy (temperature 0, always the most likely token)"]
    assert "滑动窗口" in translations["Rolling window: drop the oldest turns"]


def test_the_committed_catalog_is_compiled_from_the_committed_source(tmp_path: Path) -> None:
    pipeline = _pipeline()
    fresh = tmp_path / "fresh.qm"
    pipeline.compile_catalog(ZH_TS, fresh)
    committed = pipeline.catalog_for(ZH_TS)
    assert committed == REPO_ROOT / "app" / "ui" / "shell" / "locale" / "glassbox_zh_CN.qm"
    assert committed.read_bytes() == fresh.read_bytes()  # run `python packaging/translations.py compile`


def test_the_wheel_and_the_bundle_carry_the_catalogs() -> None:
    pyproject = (REPO_ROOT / "pyproject.toml").read_text(encoding="utf-8")
    assert '"app.ui.shell" = ["locale/*.qm", "locale/*.json"]' in pyproject
    spec = (REPO_ROOT / "packaging" / "glassbox.spec").read_text(encoding="utf-8")
    assert '"app/ui/shell/locale"' in spec


def test_a_catalog_is_compiled_beside_the_one_in_use_and_put_in_its_place_whole(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The bundle build compiles the committed catalogs again while tests (and the app) may be reading them."""
    pipeline = _pipeline()
    qm = tmp_path / "glassbox_zh_CN.qm"
    qm.write_bytes(b"the catalog the running app reads")
    during: list[bytes] = []
    lrelease = pipeline._run

    def run_and_look(command: list[str]) -> str:
        output = lrelease(command)
        during.append(qm.read_bytes())  # what a reader meets once lrelease has written
        return output

    monkeypatch.setattr(pipeline, "_run", run_and_look)
    pipeline.compile_catalog(ZH_TS, qm)
    assert during == [b"the catalog the running app reads"]
    assert qm.read_bytes() == pipeline.catalog_for(ZH_TS).read_bytes()
    assert [path.name for path in tmp_path.iterdir()] == [qm.name]  # nothing left beside it
