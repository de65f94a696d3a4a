// Blast Radius Gate's reporter for node's test runner (gate frozen-tests):
// appends one JSON line per finished test to the file the environment
// names, with its file, name, ancestors and outcome, and prints nothing.
// node's own `spec` reporter prints what people read beside it.
import { appendFileSync } from 'node:fs';

const target = process.env.BLAST_RADIUS_GATE_NODE_EVENTS;

export default async function* reporter(source) {
  const open = new Map(); // file -> the names of the tests started and not finished, by nesting
  for await (const event of source) {
    const data = event.data || {};
    const file = data.file || '';
    if (event.type === 'test:start') {
      const stack = open.get(file) || [];
      stack.length = data.nesting;
      stack.push(data.name);
      open.set(file, stack);
    } else if (target && (event.type === 'test:pass' || event.type === 'test:fail')) {
      const stack = open.get(file) || [];
      const line = {
        type: event.type,
        file,
        name: data.name,
        ancestors: stack.slice(0, data.nesting),
        kind: data.details && data.details.type === 'suite' ? 'suite' : 'test',
        skip: data.skip !== undefined && data.skip !== false,
        todo: data.todo !== undefined && data.todo !== false,
      };
      appendFileSync(target, JSON.stringify(line) + '\n');
    }
  }
}
