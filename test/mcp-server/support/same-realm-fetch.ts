/**
 * `fetch` whose responses parse JSON in the test's realm. Node's `Response.json()` builds objects
 * of Node's own realm, whose prototype is not the `Object.prototype` of Jest's sandbox; ext-tasks
 * checks results for plain JSON objects by prototype and refuses those ("Expected a JSON value").
 */
export const sameRealmFetch: typeof fetch = async (input, init) => {
  const response = await fetch(input, init);
  return Object.assign(response, { json: async () => JSON.parse(await response.text()) as unknown });
};
