// One request to the server as both pages make it: the answer's JSON body, or why there is none.
// A network that is down, or a server that is (502, 503, 504), is Offline: the page keeps working
// and tries again; any other failure is a Problem with its problem+json body (RFC 9457).

const OFFLINE_STATUS = new Set([502, 503, 504]);

/** No server to answer: `status` 0 (no network) or the server's, `after` its Retry-After. */
export class Offline extends Error {
  constructor(message, status = 0, after = null) {
    super(message);
    Object.assign(this, { status, after });
  }
}

/** An answer that is not a success: a problem+json body, its detail as the message. */
export class Problem extends Error {
  constructor(status, body, after) {
    super(body.detail || `The server answered ${status}.`);
    Object.assign(this, { status, body, after });
  }
}

/** `fetch(url, options)`, its failure to reach the server thrown as Offline (an abort as it
 * is); the response itself, once it came (shown to `options.seen`). */
export async function reach(url, options) {
  try {
    const response = await fetch(url, options);
    options.seen?.(response);
    return response;
  } catch (error) {
    if (error.name === "AbortError") throw error;
    throw new Offline(error.message);
  }
}

/** The JSON body of a successful answer to `url` (an empty object for 204 or no body); Offline
 * or Problem otherwise. A success whose body was cut off (the network dropped, the page was
 * reloaded as it came) or is no JSON (a Wi-Fi login page) is no answer: it is Offline, never an
 * empty object, which the page would take for the answer, keep and draw (a game list that was
 * `{}` stopped the first screen from opening on that phone again). */
export async function request(url, options = {}) {
  const response = await reach(url, { ...options, headers: { Accept: "application/json", ...options.headers } });
  const { status } = response, after = response.headers.get("Retry-After");
  if (OFFLINE_STATUS.has(status)) throw new Offline(String(status), status, after);
  let text = "";
  try {
    if (status !== 204) text = await response.text();
  } catch (error) {
    if (error.name === "AbortError") throw error;
    throw new Offline(error.message);
  }
  let body = {};
  try {
    if (text) body = JSON.parse(text);
  } catch {
    if (response.ok) throw new Offline(`The answer to ${url} was no JSON.`);
  }
  if (!response.ok) throw new Problem(status, body, after);
  return body;
}
