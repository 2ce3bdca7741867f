"""Real traffic between namespaces: streams over the hosts' own sockets.

tcp_exchange() runs one TCP connection through the translator (a server
in one namespace, a client in another) and returns what each side got;
Thread runs a function in the background and hands its result or its
exception to join().
"""

import hashlib
import socket
import threading

from .netns import Netns


def sha256(data):
    return hashlib.sha256(data).hexdigest()


def recv_all(sock):
    chunks = []
    while True:
        b = sock.recv(1 << 16)
        if not b:
            return b"".join(chunks)
        chunks.append(b)


class Thread(threading.Thread):
    """A thread whose exception or result is collected by join()."""

    def __init__(self, fn, *args):
        super().__init__(daemon=True)
        self.fn, self.args = fn, args
        self.result = self.error = None

    def run(self):
        try:
            self.result = self.fn(*self.args)
        except BaseException as e:      # reported by join()
            self.error = e

    def join(self, timeout=None):
        super().join(timeout)
        if self.is_alive():
            raise AssertionError("thread %s still running" % self.fn.__name__)
        if self.error is not None:
            raise self.error
        return self.result


def tcp_exchange(server_ns, server_family, server_addr, client_ns,
                 client_family, connect_addr, up, down, timeout=120):
    """One TCP connection: the client sends UP and half-closes, the server
    answers DOWN and closes. Returns (what the server got, what the client
    got)."""
    srv = Netns.socket(server_ns, server_family, socket.SOCK_STREAM)
    srv.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    srv.bind((server_addr, 0))
    srv.listen(1)
    srv.settimeout(timeout)
    port = srv.getsockname()[1]

    def serve():
        conn, _ = srv.accept()
        conn.settimeout(timeout)
        got = recv_all(conn)
        conn.sendall(down)
        conn.close()
        return got

    t = Thread(serve)
    t.start()
    try:
        c = Netns.socket(client_ns, client_family, socket.SOCK_STREAM)
        c.settimeout(timeout)
        c.connect((connect_addr, port))
        sender = Thread(lambda: (c.sendall(up), c.shutdown(socket.SHUT_WR)))
        sender.start()
        got = recv_all(c)
        sender.join(timeout)
        c.close()
        return t.join(timeout), got
    finally:
        srv.close()
