// Package server is ssalens's language server: the protocol side only. It speaks LSP over
// JSON-RPC (go.lsp.dev/jsonrpc2, with go.lsp.dev/protocol's types and its own for what LSP 3.17
// added), keeps the open documents, and converts between LSP positions and the byte offsets
// of package analysis, which computes everything shown.
//
// As in gopls, protocol, state and analysis are kept apart:
//
//   - Protocol. Server.handle dispatches each message on the connection's reading goroutine
//     (no protocol.ServerHandler: it cannot route methods the library does not know, and it
//     drops numeric cancellations). Lifecycle rules (lifecycle.go) answer requests that come
//     before initialize or after shutdown. Notifications run there, in order. Each request is
//     bound to the current snapshot, then answered on its own goroutine, so requests run
//     concurrently, can be cancelled ($/cancelRequest, cancel.go), and a panic in one is
//     answered with InternalError while the server keeps serving.
//   - State. A snapshot (snapshot.go) is an immutable view of the session: one version of each
//     open document (documents.go), the settings (settings.go) and the position encoding.
//     Notifications publish a new snapshot under a mutex; nothing in a published one changes.
//     A document version holds an analysis.Document, made from the previous version with the
//     byte edit of each change a didChange carries, and re-parsed incrementally when first
//     analyzed; its line index converts positions (positions.go: UTF-16 or UTF-8, CRLF,
//     clamping).
//   - Analysis. analysis.Document computes its Result once, on first use, for every request
//     and the diagnostics publisher (diagnostics.go) that asks. The publisher analyzes each
//     new version at once; until it is done, inlay hints may come from the previous analysis,
//     or, in a large file just opened, from a preview of its first lines (stale.go), so that
//     neither typing nor opening a file waits for an analysis. The feature files (inlayhint.go,
//     hover.go, navigation.go, showssa.go) only convert positions and shapes.
package server
