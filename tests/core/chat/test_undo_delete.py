"""Deleting a message can be undone: the store hands back what it removed and puts it back as it was."""

from __future__ import annotations

import pytest

from app.core.chat.store import ChatStore, ChatStoreError, new_message
from tests.helpers.vision import prepared_picture


def test_a_removed_message_and_its_replies_come_back_as_they_were_with_their_chat_on_show(store: ChatStore) -> None:
    chat = store.create_chat()
    store.add_message(chat.id, "user", "Name a fruit.")
    store.add_message(chat.id, "assistant", "Apple.", model="small.gguf", stats={"tokens": 2})
    question = store.add_message(chat.id, "user", "Another?")
    store.add_message(chat.id, "assistant", "Pear.", reasoning="Pears are fruit.")
    before = store.thread(chat.id)
    removed = store.remove_message(question.id)
    assert [m.text for m in store.thread(chat.id)] == ["Name a fruit.", "Apple."]
    store.restore_messages(removed)
    assert store.thread(chat.id) == before
    assert store.versions(chat.id) == {m.id: (0, 1) for m in before}


def test_an_undone_version_delete_brings_the_version_back_in_its_place(store: ChatStore) -> None:
    chat = store.create_chat()
    question = store.add_message(chat.id, "user", "Name a colour.")
    first = store.add_message(chat.id, "assistant", "Blue.")
    second = store.save_message(new_message(chat.id, "assistant", "Green.", question.id))
    removed = store.remove_message(second.id)
    assert store.thread(chat.id)[-1].id == first.id  # the other version on show
    assert store.versions(chat.id)[first.id] == (0, 1)
    store.restore_messages(removed)
    assert store.thread(chat.id)[-1].id == second.id
    assert store.versions(chat.id)[second.id] == (1, 2)


def test_a_removed_messages_images_stay_until_the_removal_is_final(store: ChatStore) -> None:
    picture = prepared_picture("red")
    chat = store.create_chat()
    shown = store.add_message(chat.id, "user", "Look", images=(picture,))
    removed = store.remove_message(shown.id)
    assert picture.exists(), "Undo may still bring it back"
    store.restore_messages(removed)
    assert store.thread(chat.id)[0].images == (picture,)
    store.release_images(store.remove_message(shown.id))
    assert not picture.exists()


def test_a_removal_whose_chat_was_deleted_meanwhile_cannot_come_back_and_says_so(store: ChatStore) -> None:
    chat = store.create_chat()
    shown = store.add_message(chat.id, "user", "Hello")
    removed = store.remove_message(shown.id)
    store.delete_chat(chat.id)
    with pytest.raises(ChatStoreError, match="no longer exists"):
        store.restore_messages(removed)
