"""The bestiary over the JSON API (issue 39 item 3): the referee lists a table's game's
entries and seats three in one request; a player may do neither, and reads the seatings
without their sheets; a wrong number is refused with its bounds, before anything is
written."""

from __future__ import annotations

from .conftest import Site, make_table


def test_the_referee_seats_from_the_bestiary_and_a_player_may_not(site: Site) -> None:
    table = make_table(site, "mneme", "Raid")
    ron, ann = table.auth("Ron"), table.auth("Ann")
    base = f"/api/tables/{table.id}"
    with site.client() as http:
        listed = http.get(f"{base}/bestiary", headers=ron)
        assert listed.status_code == 200
        raider = next(e for e in listed.json() if e["id"] == "raider")
        assert raider["from_text"] is False and "Cinder Blocks" in str(raider["sheet"])
        armour = next(d for d in raider["dials"] if d["key"] == "armour")
        assert (armour["value"], armour["ge"], armour["le"]) == (4, 0, 12)
        assert http.get(f"{base}/bestiary", headers=ann).status_code == 403
        seq = site.service.load(table.id).seq
        body = {"entry": "raider", "count": 3, "dials": {"armour": 6}}
        refused = http.post(f"{base}/characters/bestiary", json=body, headers=ann)
        assert refused.status_code == 403, refused.text
        wrong = {**body, "dials": {"armour": 13}}
        refused = http.post(f"{base}/characters/bestiary", json=wrong, headers=ron)
        assert refused.status_code == 422
        assert "Armour: a whole number from 0 to 12 (got 13)" in refused.json()["detail"]
        too_many = http.post(f"{base}/characters/bestiary", json={**body, "count": 13}, headers=ron)
        assert too_many.status_code == 422
        assert site.service.load(table.id).seq == seq
        done = http.post(f"{base}/characters/bestiary", json=body, headers=ron)
        assert done.status_code == 201, done.text
        assert done.json()["event"]["seq"] == seq + 3
        assert done.json()["event"]["payload"]["sheet"]["armour"][0]["rating"] == 6
        log = http.get(f"{base}/log", params={"after": seq}, headers=ann).json()
        events = log["events"] if isinstance(log, dict) else log
        assert [e["payload"]["sheet"] for e in events] == [
            {"name": f"Raider {n}"} for n in (1, 2, 3)
        ]
        assert all(e["sheet_hidden"] for e in events)
