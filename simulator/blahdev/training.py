"""Training sets and their uploads: request a ticket, PUT the JSONL to the simulator itself."""

from __future__ import annotations

import json

from simulator.blahdev.world import Json, World

MAX_UPLOAD_BYTES = 10 * 1024 * 1024
TICKET_TTL_MS = 3_600_000


class UploadError(Exception):
    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


def request_upload(world: World, name: str, filename: str, size_bytes: int, base_url: str) -> Json:
    if size_bytes > MAX_UPLOAD_BYTES:
        raise UploadError(413, f"size_bytes {size_bytes} exceeds the {MAX_UPLOAD_BYTES}-byte limit")
    with world.lock:
        ts_id = world.new_id("ts")
        token = f"up_{world.rng.getrandbits(96):024x}"
        now = world.now()
        world.training_sets[ts_id] = {
            "id": ts_id,
            "name": name,
            "filename": filename,
            "size_bytes": size_bytes,
            "status": "pending_upload",
            "example_count": None,
            "created_at": now,
        }
        world.uploads[token] = {"training_set_id": ts_id, "expires_at": now + TICKET_TTL_MS}
        return {
            "training_set_id": ts_id,
            "upload_url": f"{base_url.rstrip('/')}/api/v1/uploads/{token}",
            "method": "PUT",
            "headers": {"Content-Type": "application/x-ndjson"},
            "expires_at": now + TICKET_TTL_MS,
            "max_bytes": MAX_UPLOAD_BYTES,
        }


def count_examples(body: bytes) -> int:
    """Number of JSON-object lines; UploadError(422) naming the first bad line."""
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise UploadError(422, "upload is not UTF-8 text") from exc
    count = 0
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            value = json.loads(line)
        except ValueError as exc:
            raise UploadError(422, f"line {number} is not valid JSON") from exc
        if not isinstance(value, dict):
            raise UploadError(422, f"line {number} is not a JSON object")
        count += 1
    if count == 0:
        raise UploadError(422, "upload holds no examples")
    return count


def store_upload(world: World, token: str, body: bytes) -> Json:
    with world.lock:
        ticket = world.uploads.get(token)
        if ticket is None:
            raise UploadError(404, "upload ticket not found")
        if world.now() > ticket["expires_at"]:
            raise UploadError(410, "upload ticket expired")
    if len(body) > MAX_UPLOAD_BYTES:
        raise UploadError(413, f"upload exceeds the {MAX_UPLOAD_BYTES}-byte limit")
    examples = count_examples(body)
    with world.lock:
        training_set = world.training_sets[ticket["training_set_id"]]
        training_set.update(status="ready", example_count=examples, size_bytes=len(body))
        world.uploads.pop(token, None)
        return dict(training_set)
