#!/usr/bin/env python3
"""A multicast host agent that runs inside one network namespace (as root).

It performs a timed plan of socket operations (the Linux kernel then sends the IGMP messages)
and can record which multicast UDP frames reach its interface. Times are seconds after --start,
a CLOCK_MONOTONIC value (the same clock in every namespace).

Actions (--do, repeatable): T:join:GROUP, T:leave:GROUP, T:sjoin:GROUP/SOURCE,
T:sleave:GROUP/SOURCE, T:rawreport:GROUP (one IGMPv2 report sent by hand through a raw socket,
with Router Alert and TTL 1: the kernel keeps no membership, so the host then stays silent),
T:send:GROUP+GROUP+...:PERIOD (send a UDP datagram to each group every PERIOD s until --end).
--record FILE writes "time group" lines for every UDP frame to 224.0.0.0/4 seen on --iface.
"""

import argparse
import select
import socket
import struct
import threading
import time

IP_ADD_SOURCE_MEMBERSHIP = 39
IP_DROP_SOURCE_MEMBERSHIP = 40
ETH_P_IP = 0x0800


def checksum(data: bytes) -> int:
    if len(data) % 2:
        data += b"\0"
    s = sum(struct.unpack(f"!{len(data) // 2}H", data))
    while s >> 16:
        s = (s & 0xFFFF) + (s >> 16)
    return ~s & 0xFFFF


def record(iface, start, end, path):
    s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW, socket.htons(ETH_P_IP))
    s.bind((iface, 0))
    out = []
    while True:
        now = time.monotonic()
        if now >= end:
            break
        r, _, _ = select.select([s], [], [], min(0.2, end - now))
        if not r:
            continue
        frame, addr = s.recvfrom(2048)
        # addr[2] is the packet type: 4 = PACKET_OUTGOING (our own transmissions)
        if addr[2] == 4 or len(frame) < 20:
            continue
        t = time.monotonic() - start
        ip = frame  # AF_PACKET SOCK_RAW on an Ethernet device includes the MAC header
        if len(ip) >= 34 and ip[12:14] == b"\x08\x00":
            ip = ip[14:]
        if ip[9] != 17:
            continue
        dst = socket.inet_ntoa(ip[16:20])
        if 224 <= ip[16] <= 239:
            out.append(f"{t:.6f} {dst}\n")
    with open(path, "w") as f:
        f.writelines(out)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--start", type=float, required=True)
    ap.add_argument("--end", type=float, required=True, help="seconds after start")
    ap.add_argument("--iface", default="eth0")
    ap.add_argument("--addr", required=True, help="this host's IPv4 address")
    ap.add_argument("--do", action="append", default=[])
    ap.add_argument("--record")
    a = ap.parse_args()

    end = a.start + a.end
    threads = []
    if a.record:
        th = threading.Thread(target=record, args=(a.iface, a.start, end, a.record))
        th.start()
        threads.append(th)

    ifaddr = socket.inet_aton(a.addr)
    socks = {}
    plan = []
    for d in a.do:
        t, what, arg = d.split(":", 2)
        plan.append((float(t), what, arg))
    plan.sort()
    for t, what, arg in plan:
        delay = a.start + t - time.monotonic()
        if delay > 0:
            time.sleep(delay)
        if what in ("join", "leave"):
            if arg not in socks:
                socks[arg] = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
            opt = socket.IP_ADD_MEMBERSHIP if what == "join" else socket.IP_DROP_MEMBERSHIP
            socks[arg].setsockopt(socket.IPPROTO_IP, opt, socket.inet_aton(arg) + ifaddr)
        elif what in ("sjoin", "sleave"):
            g, src = arg.split("/")
            if g not in socks:
                socks[g] = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
            opt = IP_ADD_SOURCE_MEMBERSHIP if what == "sjoin" else IP_DROP_SOURCE_MEMBERSHIP
            socks[g].setsockopt(socket.IPPROTO_IP, opt, socket.inet_aton(arg.split("/")[0]) + ifaddr + socket.inet_aton(src))
        elif what == "rawreport":
            r = socket.socket(socket.AF_INET, socket.SOCK_RAW, socket.IPPROTO_IGMP)
            r.setsockopt(socket.IPPROTO_IP, socket.IP_OPTIONS, b"\x94\x04\x00\x00")
            r.setsockopt(socket.IPPROTO_IP, socket.IP_MULTICAST_TTL, 1)
            r.setsockopt(socket.IPPROTO_IP, socket.IP_MULTICAST_IF, ifaddr)
            msg = struct.pack("!BBH4s", 0x16, 0, 0, socket.inet_aton(arg))
            msg = msg[:2] + struct.pack("!H", checksum(msg)) + msg[4:]
            r.sendto(msg, (arg, 0))
            r.close()
        elif what == "send":
            groups, period = arg.rsplit(":", 1)
            th = threading.Thread(target=sender, args=(groups.split("+"), float(period), ifaddr, end))
            th.start()
            threads.append(th)
        else:
            raise SystemExit(f"unknown action {what}")
    for th in threads:
        th.join()
    for s in socks.values():
        s.close()


def sender(groups, period, ifaddr, end):
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    s.setsockopt(socket.IPPROTO_IP, socket.IP_MULTICAST_TTL, 1)
    s.setsockopt(socket.IPPROTO_IP, socket.IP_MULTICAST_IF, ifaddr)
    s.setsockopt(socket.IPPROTO_IP, socket.IP_MULTICAST_LOOP, 0)
    n = 0
    t0 = time.monotonic()
    while True:
        nxt = t0 + n * period
        now = time.monotonic()
        if nxt >= end:
            break
        if nxt > now:
            time.sleep(nxt - now)
        for g in groups:
            s.sendto(b"x" * 64, (g, 9999))
        n += 1
    s.close()


if __name__ == "__main__":
    main()
