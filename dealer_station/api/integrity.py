"""``GET /tables/{table}/integrity``: the integrity monitor's last report for
the pit boss's page (docs/integrity.md "The page"), with the counts it draws.

A pit boss's only (a token or a PIN session): the report names the cards of a
shoe that did not add up, which may include a card still face down. The game
server has the table's ``integrity`` topic, which names none.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends

from dealer_station.api.auth import Principal
from dealer_station.api.commands import REFUSALS
from dealer_station.api.context import Context, Table, allow
from dealer_station.integrity_watch import current

router = APIRouter(tags=["integrity"], responses={k: REFUSALS[k] for k in (401, 403, 404)})

PitBoss = Annotated[Principal, Depends(allow("pit_boss"))]


@router.get("/tables/{table}/integrity")
async def integrity(principal: PitBoss, actor: Table, ctx: Context) -> dict[str, Any]:
    """The last report (``checkpoint`` says which look it was: null before the
    first), each alarm and each test's latest finding in full words, the tests
    not run yet, and ``pictures``: the pocket counts in wheel order with the
    99% band of a fair wheel, each dealer's signature, each day's hold
    against its 95% interval."""
    watch = ctx.station.watches[actor.id]
    report = watch.report
    out: dict[str, Any] = {
        "table": actor.id,
        "checkpoint": watch.checkpoint,
        "records": watch.seq,
        "level": watch.level,
        "correction": "bonferroni",
        "alarms": 0,
        "findings": [],
        "not_run": [],
        "pictures": watch.monitor.pictures(actor.id),
    }
    if report is not None:
        out["alarms"] = len(report.alarms)
        out["findings"] = [v.to_json(report.level) for v in current(report)]
        out["not_run"] = [
            {"test": s.test, "subject": s.subject, "sample": s.sample, "minimum": s.minimum}
            for t in report.tables
            for s in t.skipped
            if not s.why
        ]
    return out
