"""The base of every state, event and command model: frozen pydantic models."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict


class Model(BaseModel):
    """Immutable and strict about unknown fields, so a typo in saved JSON is an error."""

    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)
