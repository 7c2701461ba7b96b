// A clock for tests, loaded with `node --import ./scripts/test/test-clock.mjs` (NODE_OPTIONS): when
// TEST_CLOCK is set (an ISO date and time with its offset), every `new Date()` and `Date.now()` in
// this process starts at that moment and runs on from there. Children inherit it through the
// environment: TEST_CLOCK_SET_AT (the real time the clock was set, added here when missing) makes the
// test runner, the server it starts and the vitest workers agree to the millisecond.
// Used by `npm run test:clock` (scripts/test/clock-matrix.mjs); never set in production.
const at = process.env.TEST_CLOCK;
if (at) {
  const target = Date.parse(at);
  if (Number.isNaN(target)) throw new Error(`TEST_CLOCK must be an ISO date and time, not ${JSON.stringify(at)}`);
  process.env.TEST_CLOCK_SET_AT ??= String(Date.now());
  const offset = target - Number(process.env.TEST_CLOCK_SET_AT);
  const RealDate = Date;
  const now = () => RealDate.now() + offset;
  globalThis.Date = new Proxy(RealDate, {
    construct: (target_, args, newTarget) => Reflect.construct(target_, args.length ? args : [now()], newTarget),
    apply: () => new RealDate(now()).toString(),
    get: (target_, key, receiver) => (key === "now" ? now : Reflect.get(target_, key, receiver)),
  });
}
