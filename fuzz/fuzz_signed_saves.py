"""Fuzz target: ``boardrules.state_from_json(text, key=...)`` on mutated signed saves.

Input: the text of a save signed with the fuzzing key (``fuzz/corpus/signed_saves``).  As
it comes, a mutated save must be refused with :class:`~boardrules.InvalidStateError`
unless its signed content is unchanged.  Then the same document is signed again after
the mutation, so that the fuzzer reaches every check behind the signature: a re-signed
save must load exactly when its unsigned twin loads, to the same state.
"""

from __future__ import annotations

import json
import sys
from typing import Any

from _common import SIGNING_KEY, json_mutator, main
from fuzz_saves import check_loaded, load_or_refuse

from boardrules.api import SIGNATURE_FIELD, sign_document


def signed_again(doc: dict[str, Any]) -> str:
    doc = dict(doc)
    doc[SIGNATURE_FIELD] = sign_document(doc, SIGNING_KEY)
    return json.dumps(doc)


def TestOneInput(data: bytes) -> None:
    state = load_or_refuse(data, key=SIGNING_KEY)
    if state is not None:
        check_loaded(state, key=SIGNING_KEY)
    try:
        doc = json.loads(data)
    except (ValueError, RecursionError):
        return
    if not isinstance(doc, dict):
        return
    unsigned = {k: v for k, v in doc.items() if k != SIGNATURE_FIELD}
    plain = load_or_refuse(json.dumps(unsigned))
    signed = load_or_refuse(signed_again(unsigned), key=SIGNING_KEY)
    if (plain is None) != (signed is None) or (plain is not None and plain != signed):
        raise AssertionError("a re-signed save and its unsigned twin load differently")
    if state is not None and (plain is None or plain != state):
        raise AssertionError("a signed save loads, but its content alone does not")


if __name__ == "__main__":
    main(TestOneInput, json_mutator)
    sys.exit(0)
