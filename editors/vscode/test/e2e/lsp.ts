// Asks the ssalens server directly, over stdio, what it answers for a file: what the editor must
// show, to compare with what it does show.
import * as cp from 'node:child_process';
import * as fs from 'node:fs';
import { pathToFileURL } from 'node:url';

import {
  createProtocolConnection,
  DidOpenTextDocumentNotification,
  ExitNotification,
  InitializedNotification,
  InitializeRequest,
  ShutdownRequest,
  StreamMessageReader,
  StreamMessageWriter,
} from 'vscode-languageserver-protocol/node';

/** Opens file in a session of the server bin, sends method with params(uri) and returns the result. */
export async function askServer<T>(bin: string, file: string, method: string, params: (uri: string) => unknown): Promise<T> {
  const proc = cp.spawn(bin, ['serve'], { stdio: 'pipe' });
  const conn = createProtocolConnection(new StreamMessageReader(proc.stdout), new StreamMessageWriter(proc.stdin));
  conn.listen();
  try {
    await conn.sendRequest(InitializeRequest.type, { processId: process.pid, rootUri: null, capabilities: {}, workspaceFolders: null });
    await conn.sendNotification(InitializedNotification.type, {});
    const uri = pathToFileURL(file).href;
    await conn.sendNotification(DidOpenTextDocumentNotification.type, {
      textDocument: { uri, languageId: 'javascript', version: 1, text: fs.readFileSync(file, 'utf8') },
    });
    const result = (await conn.sendRequest(method, params(uri))) as T;
    await conn.sendRequest(ShutdownRequest.type);
    await conn.sendNotification(ExitNotification.type);
    return result;
  } finally {
    conn.dispose();
    proc.kill();
  }
}
