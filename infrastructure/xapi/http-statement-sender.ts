import type { StatementSender } from './statement-sender.port.ts';

const TIMEOUT_MS = 15_000;
/** What of an LRS's answer the log keeps: enough to see why, never a whole page. */
const ANSWER_CHARS = 300;

/** The LRS's answer as one line (control characters out): it may echo anything. */
const answerText = async (response: Response) => {
  const text = await response.text().catch(() => '');
  return (
    text
      // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is taken out.
      .replace(/[\u0000-\u001f\u007f]+/g, ' ')
      .trim()
      .slice(0, ANSWER_CHARS)
  );
};

/** Why a request got no answer, without the address or the credentials. */
const failureText = (error: unknown) => {
  if (error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError')) return 'LRS ni odgovoril v 15 sekundah.';
  const cause = error instanceof Error ? (error.cause as { code?: unknown } | undefined) : undefined;
  return `LRS ni dosegljiv${typeof cause?.code === 'string' ? ` (${cause.code})` : ''}.`;
};

/** The statements resource of an LRS endpoint (`https://lrs.example/xapi` → `…/xapi/statements`). */
export const statementsUrl = (endpoint: string, statementId: string) =>
  `${endpoint.replace(/\/+$/, '')}/statements?statementId=${encodeURIComponent(statementId)}`;

/** The statement sender over HTTP (fetch): an LRS's answer read as the port says (decision 0061). */
export const putStatement: StatementSender = async (destination, statementId, statement) => {
  let response: Response;
  try {
    response = await fetch(statementsUrl(destination.url, statementId), {
      method: 'PUT',
      headers: {
        'content-type': 'application/json',
        'x-experience-api-version': '1.0.3',
        authorization: `Basic ${Buffer.from(`${destination.key}:${destination.secret}`).toString('base64')}`,
      },
      body: JSON.stringify(statement),
      redirect: 'error',
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
  } catch (error) {
    return { kind: 'retry', status: null, error: failureText(error) };
  }
  const status = response.status;
  const answer = await answerText(response);
  if ((status >= 200 && status < 300) || status === 409) return { kind: 'delivered', status };
  const error = `LRS je odgovoril ${status}${answer ? `: ${answer}` : '.'}`;
  if (status === 408 || status === 429 || status >= 500 || status < 400) return { kind: 'retry', status, error };
  return { kind: 'refused', status, error };
};
