import http from 'node:http';
import type { Duplex } from 'node:stream';

/** What Node's HTTP parser refused, as a status and a sentence for the client. */
export interface ClientErrorAnswer {
  status: number;
  message: string;
}

interface ParserError extends NodeJS.ErrnoException {
  rawPacket?: Buffer;
}

/**
 * Requests Node's parser refuses never reach a handler: Node answers them itself with an empty
 * body (431 for too many or too long headers or URL, 400 for a malformed request or a lying
 * Content-Length, 408 for a request that took too long). This answers the same statuses with a
 * JSON body built by `bodyFor`, in the server's own error shape, and closes the connection.
 */
export function answerClientErrorsAsJson(server: http.Server, bodyFor: (answer: ClientErrorAnswer, rawPacket: Buffer | undefined) => unknown): void {
  server.on('clientError', (err: ParserError, socket: Duplex) => {
    const inFlight = (socket as Duplex & { _httpMessage?: http.ServerResponse })._httpMessage;
    if (err.code === 'ECONNRESET' || !socket.writable || inFlight?.headersSent) {
      socket.destroy();
      return;
    }
    const answer = describeClientError(err);
    const text = JSON.stringify(bodyFor(answer, err.rawPacket));
    socket.end(
      `HTTP/1.1 ${answer.status} ${http.STATUS_CODES[answer.status] ?? ''}\r\n` +
        'Content-Type: application/json; charset=utf-8\r\n' +
        `Content-Length: ${Buffer.byteLength(text)}\r\n` +
        'Connection: close\r\n\r\n' +
        text,
    );
  });
}

export function describeClientError(err: NodeJS.ErrnoException): ClientErrorAnswer {
  switch (err.code) {
    case 'HPE_HEADER_OVERFLOW':
      return { status: 431, message: `The request line and headers exceed ${http.maxHeaderSize} bytes (or too many headers)` };
    case 'ERR_HTTP_REQUEST_TIMEOUT':
    case 'ERR_HTTP_HEADERS_TIMEOUT':
      return { status: 408, message: 'The request was not received in time' };
    case 'HPE_INVALID_CONTENT_LENGTH':
    case 'HPE_UNEXPECTED_CONTENT_LENGTH':
      return { status: 400, message: 'Invalid Content-Length header' };
    case 'HPE_INVALID_TRANSFER_ENCODING':
    case 'HPE_INVALID_CHUNK_SIZE':
      return { status: 400, message: 'Invalid chunked transfer encoding' };
    case 'HPE_CHUNK_EXTENSIONS_OVERFLOW':
      return { status: 413, message: 'Chunk extensions too large' };
    default:
      return { status: 400, message: `Malformed HTTP request${err.code ? ` (${err.code})` : ''}` };
  }
}

/** The request path from the first line of a raw packet, for servers whose error shape depends on it. */
export function pathOfRawPacket(raw: Buffer | undefined): string {
  const line = raw?.subarray(0, 2048).toString('latin1').split('\r\n', 1)[0] ?? '';
  return line.split(' ')[1]?.split('?')[0] ?? '/';
}
