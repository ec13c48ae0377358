// Talking to the server, once for every script of the page: JSON in and out, the
// browser's session cookie, and an error whose message is the server's own words.

export async function api(method, url, body) {
  const init = { method, credentials: "same-origin", headers: {} };
  if (body !== undefined) {
    init.headers["content-type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  const res = await fetch(url, init);
  let data = null;
  try {
    data = await res.json();
  } catch {
    data = null;
  }
  if (!res.ok) {
    const err = new Error((data && typeof data.detail === "string" && data.detail) || `${res.status} ${res.statusText}`);
    err.data = data;
    err.status = res.status;
    throw err;
  }
  return data;
}
