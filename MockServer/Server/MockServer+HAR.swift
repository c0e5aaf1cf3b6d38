import CourierPrimitives
import Foundation

extension MockServer {
    /// Adds a stub for each entry of a HAR 1.2 file (see ``HAR``).
    /// - Parameter har: the HAR file.
    /// - Returns: the ids of the added stubs.
    /// - Throws: ``HARError`` for a file that is not HAR, ``MockServerError`` for an entry that makes no
    ///   valid stub.
    @discardableResult
    public func addStubs(har: Data) throws -> [String] {
        let mappings = try HAR.mappings(fromHAR: har)
        return try addStubs(json: JSONValue.object(["mappings": .array(mappings)]).serialized())
    }

    /// The request journal as a HAR 1.2 document: each request received, oldest first, with the status
    /// it was answered with (the journal keeps no response bodies).
    /// - Returns: the HAR file's bytes.
    public func journalAsHAR() -> Data {
        let entries = router.journal.snapshot().entries.map { entry -> JSONValue in
            let request = entry.request
            let host = request.headers["Host"] ?? "localhost"
            let headers: [JSONValue] = request.headers.fields.map {
                .object(["name": .string($0.name), "value": .string($0.value)])
            }
            let body = request.body.isEmpty ? nil : String(decoding: request.body, as: UTF8.self)
            return HAR.entry(
                method: request.method, url: "http://\(host)\(request.target)", requestHeaders: headers,
                body: body,
                bodyType: request.headers["Content-Type"] ?? "", status: entry.status, responseHeaders: [],
                content: .object(["size": .int(0), "mimeType": .string("")]), size: 0, started: entry.loggedAt
            )
        }
        return HAR.document(entries).serialized(pretty: true)
    }
}
