"""The JSON Schema of every published payload, each with its ``$id`` and
``$schema``: what ``contracts/schemas/`` holds and the AsyncAPI document refers
to."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel
from pydantic.json_schema import GenerateJsonSchema
from pydantic_core import core_schema

from dealer_station.contracts.payload_types import (
    FeedFrame,
    TypedRoundEvent,
    TypedRoundState,
    TypedStats,
)
from dealer_station.payloads import PAYLOADS, Payload

DIALECT = "https://json-schema.org/draft/2020-12/schema"
# A name, not an address: nothing is fetched from it (docs/decisions.md).
ID_BASE = "urn:dealer-station:contracts"
# The schema version every payload carries as ``v``.
VERSION: int = Payload.model_fields["v"].default


class PublishedSchema(GenerateJsonSchema):
    """Serialization schemas where an envelope's defaults are required (every
    field is sent) but a data key the station leaves out stays optional."""

    def field_is_required(
        self,
        field: core_schema.ModelField | core_schema.DataclassField | core_schema.TypedDictField,
        total: bool,
    ) -> bool:
        if field["type"] == "typed-dict-field":
            return field.get("required", total)
        return super().field_is_required(field, total)


# The typed payloads by their runtime names; the rest as the runtime has them.
TYPED: dict[str, type[BaseModel]] = {
    "RoundEvent": TypedRoundEvent,
    "RoundState": TypedRoundState,
    "Stats": TypedStats,
}


def published_models() -> dict[str, type[BaseModel]]:
    models: dict[str, type[BaseModel]] = {**PAYLOADS}
    models.update(TYPED)
    models["FeedFrame"] = FeedFrame
    return models


def schema_id(name: str) -> str:
    return f"{ID_BASE}:v{VERSION}:{name}"


def json_schema(name: str, model: type[BaseModel]) -> dict[str, Any]:
    body = model.model_json_schema(mode="serialization", schema_generator=PublishedSchema)
    return {"$schema": DIALECT, "$id": schema_id(name), **body}


def json_schemas() -> dict[str, dict[str, Any]]:
    return {name: json_schema(name, model) for name, model in published_models().items()}
