"""The production topology on one machine (issue 30, docs/deploy.md): HAProxy in front of
several daphne processes. This module writes HAProxy's configuration; ``manage.py serve
--daphne N`` supervises the processes."""

from __future__ import annotations

from pathlib import Path


def haproxy_config(*, host: str, port: int, backends: list[int], check_seconds: float = 1.0) -> str:
    """HAProxy (Debian's 2.6) on ``host:port`` balancing HTTP and websockets over the daphne
    processes on ``backends`` (ports of 127.0.0.1). A daphne whose ``/health/?only=process``
    fails (or that refuses connections) leaves the rotation within two checks; a connection
    that finds its server dead is sent to another (``redispatch``). Websockets are long-lived
    tunnels (an hour idle at most: the socket's own heartbeat keeps them busy). /health/ and
    /metrics are answered only to this machine: behind the balancer every peer looks local."""
    servers = "\n".join(
        f"    server daphne{i + 1} 127.0.0.1:{p} check inter {int(check_seconds * 1000)}ms fall 3 rise 1"
        for i, p in enumerate(backends))
    return f"""# written by manage.py serve --daphne {len(backends)} (apps/common/cluster.py): edits are overwritten
global
    maxconn 8000
    log stdout format raw local0 warning

defaults
    mode http
    log global
    option httplog
    option dontlognull
    option forwardfor
    option redispatch
    retries 3
    timeout connect 2s
    timeout client 60s
    timeout server 60s
    timeout tunnel 1h
    timeout http-keep-alive 10s
    timeout check 3s

frontend mazziere
    bind {host}:{port}
    acl internal src 127.0.0.0/8 ::1
    acl ops path /metrics path_beg /health
    http-request deny deny_status 404 if ops !internal
    default_backend daphne

backend daphne
    balance leastconn
    option httpchk
    http-check send meth GET uri /health/?only=process ver HTTP/1.1 hdr Host 127.0.0.1
    http-check expect status 200
{servers}
"""


def haproxy_config_write(path: Path, **kwargs: object) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(haproxy_config(**kwargs))  # type: ignore[arg-type]
    return path
