/**
 * What `read` answers once it differs from `before`, asked every 100 ms for at most `withinMs`;
 * `before` itself when nothing changed. After a move the release command waited for, a web server
 * may answer from a read of the registry a moment older (reused for 250 ms): the tests ask again.
 */
export async function changedFrom<T>(before: T, read: () => Promise<T>, withinMs = 20_000): Promise<T> {
  let value = await read();
  for (const until = Date.now() + withinMs; value === before && Date.now() < until; value = await read()) {
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return value;
}
