// One request to the server as both pages make it: the answer's JSON body, or why there is none.
// A network that is down, or a proxy answering for a server that is down, is Offline (the page
// keeps working and tries again); any other answer that is not a success is a Problem carrying
// its problem+json body (RFC 9457).

const OFFLINE_STATUS = new Set([502, 503, 504]);

/** The server cannot be reached: the network is down or the server is. */
export class Offline extends Error {}

/** An answer that is not a success: a problem+json body, its detail as the message. */
export class Problem extends Error {
  constructor(status, body, after) {
    super(body.detail || `The server answered ${status}.`);
    this.status = status;
    this.body = body;
    this.after = after; // Retry-After
  }
}

/** `fetch(url, options)`, its failure to reach the server thrown as Offline (an abort as it
 * is); the response itself, once it came. */
export async function reach(url, options) {
  try {
    return await fetch(url, options);
  } catch (error) {
    if (error.name === "AbortError") throw error;
    throw new Offline(error.message);
  }
}

/** The JSON body of a successful answer to `url` (an empty object for 204 or no body); Offline
 * or Problem otherwise. */
export async function request(url, options = {}) {
  const response = await reach(url, { ...options, headers: { Accept: "application/json", ...options.headers } });
  if (OFFLINE_STATUS.has(response.status)) throw new Offline(String(response.status));
  const body = response.status === 204 ? {} : await response.json().catch(() => ({}));
  if (!response.ok) throw new Problem(response.status, body, response.headers.get("Retry-After"));
  return body;
}
