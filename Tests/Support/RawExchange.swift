import Foundation
import MockServer

/// One request over a fresh raw connection.
public func perform(
    _ server: MockServer, _ target: String, headers: [(String, String)] = [], body: String = ""
) throws -> RawResponse {
    try perform(server, "GET", target, headers: headers, body: body)
}

/// One request with an explicit method over a fresh raw connection. `timeout` bounds each read
/// and write, in seconds.
public func perform(
    _ server: MockServer, _ method: String, _ target: String, headers: [(String, String)] = [],
    body: String = "", timeout: Double = 5
) throws -> RawResponse {
    let client = try RawClient(port: server.port, timeout: timeout)
    var text = "\(method) \(target) HTTP/1.1\r\nHost: 127.0.0.1:\(server.port)\r\n"
    for (name, value) in headers { text += "\(name): \(value)\r\n" }
    if !body.isEmpty || ["POST", "PUT", "PATCH"].contains(method) {
        text += "Content-Length: \(body.utf8.count)\r\n"
    }
    text += "\r\n" + body
    try client.send(text)
    return try client.readResponse(isHead: method == "HEAD")
}

/// Parses a JSON response body.
public func json(_ response: RawResponse) -> [String: Any] {
    (try? JSONSerialization.jsonObject(with: Data(response.body))) as? [String: Any] ?? [:]
}
