// for await (... of ...): an async iteration, header φ at the binding.
async function consume(stream) {
  let total = 0;
  for await (const chunk of stream) {
    total += chunk.length;
  }
  return total;
}
