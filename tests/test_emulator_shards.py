"""The emulator's sharded gateway, spoken to raw (no bot): IDENTIFY carries
``[shard_id, shard_count]``, each session gets READY and GUILD_CREATE for the guilds of its
shard only (``(guild_id >> 22) % shard_count``), a guild's events go to its shard's
session, and the REST guild routes know every guild (DISCORD_OFFLINE.md, "Shards")."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import aiohttp

from emulator import GuildSpec, running_emulator


async def identify(ws: aiohttp.ClientWebSocketResponse, token: str, shard: list[int]) -> None:
    hello = json.loads((await ws.receive()).data)
    assert hello["op"] == 10
    await ws.send_json(
        {"op": 2, "d": {"token": token, "properties": {}, "intents": 1, "shard": shard}}
    )


async def dispatched(ws: aiohttp.ClientWebSocketResponse, count: int) -> list[dict[str, Any]]:
    events = []
    while len(events) < count:
        payload = json.loads((await asyncio.wait_for(ws.receive(), 5)).data)
        if payload.get("op") == 0:
            events.append(payload)
    return events


async def test_each_shard_gets_the_guilds_of_its_shard_only() -> None:
    async with running_emulator(
        shard_count=2, extra_guilds=[GuildSpec("Second", ("second",))]
    ) as emu:
        first, second = list(emu.guilds.values())
        assert (first.id >> 22) % 2 != (second.id >> 22) % 2
        assert emu.channel("second").guild_id == second.id
        async with aiohttp.ClientSession() as http:
            sockets = {}
            for shard in (0, 1):
                ws = await http.ws_connect(emu.gateway_url)
                await identify(ws, emu.token, [shard, 2])
                ready, created = await dispatched(ws, 2)
                assert ready["t"] == "READY" and ready["d"]["shard"] == [shard, 2]
                assert created["t"] == "GUILD_CREATE"
                guild_id = int(created["d"]["id"])
                assert (guild_id >> 22) % 2 == shard
                assert [int(g["id"]) for g in ready["d"]["guilds"]] == [guild_id]
                sockets[shard] = ws
            for guild in (first, second):  # a guild's events: its shard's session
                session = emu.session_for_guild(guild.id)
                assert session.shard_id == (guild.id >> 22) % 2
            headers = {"Authorization": f"Bot {emu.token}"}
            async with http.get(f"{emu.api_base}/guilds/{second.id}", headers=headers) as r:
                assert r.status == 200 and (await r.json())["name"] == "Second"
            url = f"{emu.api_base}/guilds/{second.id}/channels"
            async with http.get(url, headers=headers) as r:
                assert [c["name"] for c in await r.json()] == ["second"]
            for ws in sockets.values():
                await ws.close()
