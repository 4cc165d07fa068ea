// Lifecycle policies with an injected clock: daily boundaries (before/after the hour, across midnight,
// across a DST change), idle windows, per-type and per-channel overrides, legacy idleMinutes, triggers.
import { describe, expect, it } from "vitest";
import {
  checkSessionReset,
  dailyBoundaries,
  evaluateSessionReset,
  matchResetTrigger,
  resolveResetPolicy,
  sessionResetKind,
} from "./reset-policy.js";

const UTC = "UTC";
const at = (iso: string) => Date.parse(iso);
const MIN = 60_000;

describe("resolveResetPolicy", () => {
  it("never resets without any policy configured", () => {
    expect(resolveResetPolicy({ session: undefined, kind: "direct" }).mode).toBe("none");
    expect(resolveResetPolicy({ session: {}, kind: "group" }).mode).toBe("none");
  });
  it("reads a block without mode as daily at 4, with its idle window combined", () => {
    expect(resolveResetPolicy({ session: { reset: {} }, kind: "direct" })).toEqual({
      mode: "daily",
      atHour: 4,
    });
    expect(resolveResetPolicy({ session: { reset: { idleMinutes: 30 } }, kind: "direct" })).toEqual(
      { mode: "daily", atHour: 4, idleMinutes: 30 },
    );
  });
  it("gives idle mode a default window of 60 minutes", () => {
    const policy = resolveResetPolicy({ session: { reset: { mode: "idle" } }, kind: "direct" });
    expect(policy).toEqual({ mode: "idle", atHour: 4, idleMinutes: 60 });
  });
  it("reads legacy idleMinutes alone as an idle policy, and as the window of a reset block", () => {
    expect(resolveResetPolicy({ session: { idleMinutes: 45 }, kind: "direct" })).toMatchObject({
      mode: "idle",
      idleMinutes: 45,
    });
    expect(
      resolveResetPolicy({ session: { idleMinutes: 45, reset: { atHour: 6 } }, kind: "direct" }),
    ).toEqual({ mode: "daily", atHour: 6, idleMinutes: 45 });
  });
  it("applies resetByType to its kind only, inheriting an active base mode", () => {
    const session = {
      reset: { mode: "idle" as const, idleMinutes: 120 },
      resetByType: { group: { idleMinutes: 10 }, thread: { mode: "daily" as const, atHour: 2 } },
    };
    expect(resolveResetPolicy({ session, kind: "direct" })).toMatchObject({
      mode: "idle",
      idleMinutes: 120,
    });
    expect(resolveResetPolicy({ session, kind: "group" })).toMatchObject({
      mode: "idle",
      idleMinutes: 10,
    });
    expect(resolveResetPolicy({ session, kind: "thread" })).toMatchObject({
      mode: "daily",
      atHour: 2,
    });
  });
  it("makes a mode-less type block daily over a disabled base, and reads dm as direct", () => {
    const session = {
      reset: { mode: "none" as const },
      resetByType: { group: { atHour: 6 }, dm: { mode: "idle" as const, idleMinutes: 5 } },
    };
    expect(resolveResetPolicy({ session, kind: "group" })).toEqual({ mode: "daily", atHour: 6 });
    expect(resolveResetPolicy({ session, kind: "direct" })).toMatchObject({
      mode: "idle",
      idleMinutes: 5,
    });
    expect(resolveResetPolicy({ session, kind: "thread" }).mode).toBe("none");
  });
  it("lets resetByChannel replace every other block", () => {
    const session = {
      idleMinutes: 5,
      reset: { mode: "idle" as const },
      resetByType: { direct: { mode: "idle" as const, idleMinutes: 9 } },
      resetByChannel: { telegram: { atHour: 7 } },
    };
    expect(resolveResetPolicy({ session, kind: "direct", channel: "telegram" })).toEqual({
      mode: "daily",
      atHour: 7,
    });
    expect(resolveResetPolicy({ session, kind: "direct", channel: "slack" })).toMatchObject({
      idleMinutes: 9,
    });
  });
});

describe("sessionResetKind", () => {
  it("classifies keys as direct, group or thread (thread first)", () => {
    expect(sessionResetKind("agent:main:main")).toBe("direct");
    expect(sessionResetKind("agent:main:telegram:direct:42")).toBe("direct");
    expect(sessionResetKind("agent:main:telegram:group:-100")).toBe("group");
    expect(sessionResetKind("agent:main:slack:channel:c1")).toBe("group");
    expect(sessionResetKind("agent:main:telegram:group:-100:topic:7")).toBe("thread");
    expect(sessionResetKind("agent:main:discord:channel:c1:thread:9")).toBe("thread");
  });
});

describe("evaluateSessionReset: daily", () => {
  const policy = { mode: "daily" as const, atHour: 4 };
  const entry = (startedAt: string, updatedAt = startedAt) => ({
    sessionStartedAt: at(startedAt),
    updatedAt: at(updatedAt),
  });
  it("keeps a session started after today's boundary and names the next one", () => {
    const verdict = evaluateSessionReset({
      policy,
      entry: entry("2026-03-10T04:00:00Z"),
      now: at("2026-03-10T23:59:00Z"),
      timeZone: UTC,
    });
    expect(verdict).toEqual({ expired: false, nextResetAt: at("2026-03-11T04:00:00Z") });
  });
  it("expires a session started just before the boundary once the boundary passed", () => {
    const e = entry("2026-03-10T03:59:59Z");
    const before = { policy, entry: e, now: at("2026-03-10T03:59:59.500Z"), timeZone: UTC };
    expect(evaluateSessionReset(before)).toEqual({
      expired: false,
      nextResetAt: at("2026-03-10T04:00:00Z"),
    });
    const after = { ...before, now: at("2026-03-10T04:00:00Z") };
    expect(evaluateSessionReset(after)).toEqual({ expired: true, reason: "daily" });
  });
  it("keeps a session across midnight until the hour, then expires it", () => {
    const e = entry("2026-03-10T22:00:00Z");
    const night = { policy, entry: e, now: at("2026-03-11T03:00:00Z"), timeZone: UTC };
    expect(evaluateSessionReset(night).expired).toBe(false);
    expect(evaluateSessionReset({ ...night, now: at("2026-03-11T05:00:00Z") }).expired).toBe(true);
  });
  it("counts daily from the session start, not from later activity", () => {
    const e = entry("2026-03-09T12:00:00Z", "2026-03-10T05:00:00Z");
    const verdict = evaluateSessionReset({
      policy,
      entry: e,
      now: at("2026-03-10T06:00:00Z"),
      timeZone: UTC,
    });
    expect(verdict).toEqual({ expired: true, reason: "daily" });
  });
  it("reads the hour in the given zone, across a DST change", () => {
    // Europe/Berlin moves from UTC+1 to UTC+2 on 2026-03-29: 04:00 local is 03:00Z, then 02:00Z.
    const zone = "Europe/Berlin";
    expect(dailyBoundaries({ now: at("2026-03-28T12:00:00Z"), atHour: 4, timeZone: zone })).toEqual(
      { last: at("2026-03-28T03:00:00Z"), next: at("2026-03-29T02:00:00Z") },
    );
    expect(dailyBoundaries({ now: at("2026-03-29T02:30:00Z"), atHour: 4, timeZone: zone })).toEqual(
      { last: at("2026-03-29T02:00:00Z"), next: at("2026-03-30T02:00:00Z") },
    );
    const e = entry("2026-03-29T01:30:00Z");
    const verdict = evaluateSessionReset({
      policy,
      entry: e,
      now: at("2026-03-29T02:00:00Z"),
      timeZone: zone,
    });
    expect(verdict).toEqual({ expired: true, reason: "daily" });
  });
  it("ignores timestamps in the future", () => {
    const e = {
      sessionStartedAt: at("2030-01-01T00:00:00Z"),
      updatedAt: at("2026-03-10T05:00:00Z"),
    };
    const now = at("2026-03-10T06:00:00Z");
    expect(evaluateSessionReset({ policy, entry: e, now, timeZone: UTC }).expired).toBe(false);
  });
});

describe("evaluateSessionReset: idle and none", () => {
  const policy = { mode: "idle" as const, atHour: 4, idleMinutes: 30 };
  const last = at("2026-03-10T10:00:00Z");
  const entry = { updatedAt: last, sessionStartedAt: last - 600 * MIN };
  it("keeps a session just under the window and expires it just over", () => {
    const under = { policy, entry, now: last + 30 * MIN, timeZone: UTC };
    expect(evaluateSessionReset(under)).toEqual({ expired: false, nextResetAt: last + 30 * MIN });
    const over = { ...under, now: last + 30 * MIN + 1 };
    expect(evaluateSessionReset(over)).toEqual({ expired: true, reason: "idle" });
  });
  it("asks for the time zone only when the policy is daily (reading the host's costs an Intl call)", () => {
    let asked = 0;
    const zone = () => {
      asked++;
      return UTC;
    };
    evaluateSessionReset({ policy, entry, now: last + 31 * MIN, timeZone: zone });
    evaluateSessionReset({ policy: { mode: "none", atHour: 4 }, entry, now: last, timeZone: zone });
    expect(asked).toBe(0);
    const daily = { mode: "daily" as const, atHour: 4 };
    evaluateSessionReset({ policy: daily, entry, now: last, timeZone: zone });
    expect(asked).toBe(1);
  });
  it("counts from the latest activity of lastInteractionAt and updatedAt", () => {
    const e = { ...entry, lastInteractionAt: last + 20 * MIN };
    const now = last + 40 * MIN;
    expect(evaluateSessionReset({ policy, entry: e, now, timeZone: UTC }).expired).toBe(false);
  });
  it("with daily, expires at whichever comes first and reports it", () => {
    const both = { mode: "daily" as const, atHour: 4, idleMinutes: 30 };
    const e = {
      updatedAt: at("2026-03-10T05:00:00Z"),
      sessionStartedAt: at("2026-03-10T04:30:00Z"),
    };
    const idle = { policy: both, entry: e, now: at("2026-03-10T06:00:00Z"), timeZone: UTC };
    expect(evaluateSessionReset(idle)).toEqual({ expired: true, reason: "idle" });
    const fresh = { ...idle, now: at("2026-03-10T05:10:00Z") };
    expect(evaluateSessionReset(fresh).nextResetAt).toBe(at("2026-03-10T05:30:00Z"));
    const daily = { ...idle, now: at("2026-03-11T04:10:00Z") };
    expect(evaluateSessionReset(daily)).toEqual({ expired: true, reason: "idle" });
    const olderDaily = {
      ...idle,
      entry: {
        updatedAt: at("2026-03-11T03:50:00Z"),
        sessionStartedAt: at("2026-03-10T04:30:00Z"),
      },
      now: at("2026-03-11T04:10:00Z"),
    };
    expect(evaluateSessionReset(olderDaily)).toEqual({ expired: true, reason: "daily" });
  });
  it("never expires under none", () => {
    const none = { mode: "none" as const, atHour: 4 };
    expect(evaluateSessionReset({ policy: none, entry, now: last * 2, timeZone: UTC })).toEqual({
      expired: false,
    });
  });
  it("checkSessionReset picks the policy of the key's kind and channel", () => {
    const session = { resetByType: { group: { mode: "idle" as const, idleMinutes: 5 } } };
    const now = last + 10 * MIN;
    const group = checkSessionReset({
      session,
      sessionKey: "agent:main:telegram:group:-1",
      entry,
      now,
      timeZone: UTC,
    });
    expect(group).toMatchObject({ expired: true, reason: "idle" });
    const direct = { session, sessionKey: "agent:main:main", entry, now, timeZone: UTC };
    expect(checkSessionReset(direct)).toMatchObject({ expired: false, policy: { mode: "none" } });
  });
});

describe("matchResetTrigger", () => {
  it("matches the defaults alone or followed by text, case-insensitively", () => {
    expect(matchResetTrigger(undefined, "/new")).toEqual({ trigger: "/new", rest: "" });
    expect(matchResetTrigger(undefined, "  /RESET  hello there ")).toEqual({
      trigger: "/reset",
      rest: "hello there",
    });
    expect(matchResetTrigger([], "/new\nline two")).toEqual({ trigger: "/new", rest: "line two" });
  });
  it("does not match a longer word or a trigger inside the message", () => {
    expect(matchResetTrigger(undefined, "/newer")).toBeUndefined();
    expect(matchResetTrigger(undefined, "please /new")).toBeUndefined();
  });
  it("uses configured triggers instead of the defaults", () => {
    const triggers = ["/fresh", "start over"];
    expect(matchResetTrigger(triggers, "/new")).toBeUndefined();
    expect(matchResetTrigger(triggers, "Start over: x")).toBeUndefined();
    expect(matchResetTrigger(triggers, "start over now")).toEqual({
      trigger: "start over",
      rest: "now",
    });
  });
});
