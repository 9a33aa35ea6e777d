// What the HTTP fuzz properties check of every answer, and how they read the store's size through the API.
import assert from 'node:assert/strict';
import type { Service } from '../helpers/service.js';

interface Answer {
  status: number;
  type: string;
  body: Buffer;
}

export async function send(url: string, init: RequestInit): Promise<Answer> {
  const response = await fetch(url, init);
  return {
    status: response.status,
    type: response.headers.get('content-type') ?? '',
    body: Buffer.from(await response.arrayBuffer()),
  };
}

/** Never a 5xx; a 4xx is problem+json that says its status, with a title and a detail. */
export function assertNoServerError(answer: Answer, what: string): void {
  assert.ok(answer.status < 500, `${what}: ${answer.status} ${answer.body.toString().slice(0, 500)}`);
  if (answer.status < 400) return;
  assert.match(answer.type, /^application\/problem\+json/, `${what}: a ${answer.status} is problem+json`);
  const problem = JSON.parse(answer.body.toString()) as { status: number; title: unknown; detail: unknown };
  assert.equal(problem.status, answer.status, `${what}: the problem says its status`);
  assert.ok(
    typeof problem.title === 'string' && typeof problem.detail === 'string',
    `${what}: the problem has a title and a detail`,
  );
}

/** How many quads the store holds. */
export async function storeSize(service: Service): Promise<number> {
  const answer = await send(`${service.url}/sparql`, {
    method: 'POST',
    headers: { 'content-type': 'application/sparql-query', accept: 'application/sparql-results+json' },
    body: 'SELECT (COUNT(*) AS ?n) WHERE { GRAPH ?g { ?s ?p ?o } }',
  });
  assert.equal(answer.status, 200, answer.body.toString());
  return Number(
    (JSON.parse(answer.body.toString()) as { results: { bindings: { n: { value: string } }[] } }).results.bindings[0]!.n
      .value,
  );
}

/** Deletes the sessions an ingest stored (so that the store, and counting it, stays small over many runs). */
export async function deleteSessions(service: Service, sessions: string[], token?: string): Promise<void> {
  for (const session of sessions) {
    const answer = await send(`${service.url}/sessions/${encodeURIComponent(session)}`, {
      method: 'DELETE',
      headers: token ? { authorization: `Bearer ${token}` } : {},
    });
    assert.ok(
      answer.status === 204 || answer.status === 404,
      `DELETE /sessions/${session}: ${answer.status} ${answer.body.toString()}`,
    );
  }
}

/** Stops a service and waits until it has exited (its data directory can then be removed). */
export async function stopService(service: Service | undefined): Promise<void> {
  const child = service?.child;
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  await new Promise((resolve) => {
    child.once('exit', resolve);
    child.kill('SIGTERM');
  });
}
