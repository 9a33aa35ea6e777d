// The batches of the crash test: batch n is `quads` quads in graph urn:mcp-ld:session/batch-n, padded so that one
// batch spans many disk blocks (a kill can land in the middle of writing it).
export function crashBatchGraph(n: number): string {
  return `urn:mcp-ld:session/batch-${n}`;
}

export function crashBatch(n: number, quads: number): string {
  const padding = 'x'.repeat(200);
  let text = '';
  for (let j = 0; j < quads; j++) text += `<urn:x:b${n}:s${j}> <urn:x:p> "${j} ${padding}" <${crashBatchGraph(n)}> .\n`;
  return text;
}
