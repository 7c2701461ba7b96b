/**
 * Statements built and compiled once per client, then only sent. Kysely builds a query's tree,
 * rewrites it for CamelCasePlugin and compiles it to SQL on every call, which costs a read that
 * runs on every request more CPU than sending it (`npm run bench:api`, against its limit). The
 * reads every request makes (an admin session's check, a day's slots) are prepared here instead.
 *
 * `build` is called once per client with a stand-in for each parameter. It may only pass a stand-in
 * to the query as a value: it must not test one, compute with it or turn it into text. Compiling
 * checks that every stand-in became a parameter of the statement, so a builder that breaks this
 * rule fails on its first call, in every test that runs it.
 *
 * Once the client's pool is open, a prepared statement goes to it straight, and its rows are mapped
 * by the client's own CamelCasePlugin: Kysely's executor (a connection checked out and back, each
 * plugin's pass) costs a read as much again as the pool's query. Inside a transaction, or on a
 * client createDb did not make, it runs through Kysely as any query does.
 */
import { createQueryId, type Compilable, type CompiledQuery, type Kysely, type RawBuilder } from "kysely";
import { camelCase, openPool } from "./client.ts";

/** Holds a parameter's place while the statement is compiled. */
class StandIn {
  readonly name: string;
  constructor(name: string) {
    this.name = name;
  }
}

type Slot = { name: string } | { value: unknown };

interface Statement<Row> {
  query: CompiledQuery<Row>;
  /** Each of the statement's parameters: a named one, filled from the call, or a fixed value. */
  slots: Slot[];
}

/** A query builder's query, or a sql`` template's. */
type Build<DB, Params, Row> = (db: Kysely<DB>, params: Params) => Compilable<Row> | RawBuilder<Row>;

/** A statement with the parameters `names`, compiled on its first call on each client. */
export function prepare<DB, Params extends object, Row>(
  names: readonly (keyof Params & string)[],
  build: Build<DB, Params, Row>,
): (db: Kysely<DB>, params: Params) => Promise<Row[]> {
  const compiled = new WeakMap<Kysely<DB>, Statement<Row>>();
  return async (db, params) => {
    let statement = compiled.get(db);
    if (!statement) compiled.set(db, (statement = compile(db, names, build)));
    const parameters = statement.slots.map((slot) =>
      "name" in slot ? (params as Record<string, unknown>)[slot.name] : slot.value,
    );
    const pool = openPool(db);
    if (!pool) return (await db.executeQuery<Row>({ ...statement.query, parameters })).rows;
    const result = await pool.query(statement.query.sql, parameters);
    const mapped = await camelCase.transformResult({ result, queryId: createQueryId() });
    return mapped.rows as Row[];
  };
}

function compile<DB, Params extends object, Row>(
  db: Kysely<DB>,
  names: readonly (keyof Params & string)[],
  build: Build<DB, Params, Row>,
): Statement<Row> {
  const standIns = Object.fromEntries(names.map((name) => [name, new StandIn(name)])) as unknown as Params;
  const built = build(db, standIns);
  const query = "isRawBuilder" in built ? built.compile(db) : built.compile();
  const slots = query.parameters.map((value): Slot => (value instanceof StandIn ? { name: value.name } : { value }));
  for (const name of names) {
    if (!slots.some((slot) => "name" in slot && slot.name === name))
      throw new Error(`prepare: "${name}" is not a parameter of the statement (${query.sql.slice(0, 80)}…)`);
  }
  return { query, slots };
}
