import CourierPrimitives
import Foundation

/// The WireMock JSON shapes of journal entries.
enum AdminJSON {
    static func loggedRequest(_ entry: RequestJournal.Entry) -> JSONValue {
        let request = entry.request
        var headers: [String: JSONValue] = [:]
        for field in request.headers where headers[field.name] == nil {
            let values = request.headers.values(for: field.name)
            headers[field.name] =
                values.count == 1 ? .string(values[0]) : .array(values.map(JSONValue.string))
        }
        var cookies: [String: JSONValue] = [:]
        for (name, value) in RequestView(request).cookies { cookies[name] = .string(value) }
        // One pass: a query of thousands of repeated names must not cost their square.
        var valuesByName: [String: [JSONValue]] = [:]
        for pair in request.query { valuesByName[pair.name, default: []].append(.string(pair.value)) }
        var query: [String: JSONValue] = [:]
        for (name, values) in valuesByName {
            query[name] = .object(["key": .string(name), "values": .array(values)])
        }
        let host = request.headers["Host"] ?? "localhost"
        let milliseconds = Int64(entry.loggedAt.timeIntervalSince1970 * 1000)
        var object: [String: JSONValue] = [
            "id": .string(entry.id),
            "url": .string(request.target),
            "absoluteUrl": .string("http://\(host)\(request.target)"),
            "method": .string(request.method),
            "clientIp": .string(
                request.remoteAddress.split(separator: ":").dropLast().joined(separator: ":")),
            "headers": .object(headers),
            "cookies": .object(cookies),
            "queryParams": .object(query),
            "browserProxyRequest": .bool(false),
            "loggedDate": .int(milliseconds),
            "loggedDateString": .string(ISO8601DateFormatter().string(from: entry.loggedAt)),
            "body": .string(String(decoding: request.body, as: UTF8.self)),
            "bodyAsBase64": .string(request.body.base64EncodedString()),
        ]
        if entry.bodyTruncated { object["bodyTruncated"] = .bool(true) }
        return .object(object)
    }

    static func serveEvent(_ entry: RequestJournal.Entry, stub: StubMapping?) -> JSONValue {
        var object: [String: JSONValue] = [
            "id": .string(entry.id),
            "request": loggedRequest(entry),
            "responseDefinition": .object(["status": .int(Int64(entry.status))]),
            "response": .object(["status": .int(Int64(entry.status))]),
            "wasMatched": .bool(entry.wasMatched),
        ]
        if let stub { object["stubMapping"] = stub.source }
        return .object(object)
    }

    static func response(_ json: JSONValue, status: Int = 200) -> ServerResponse {
        ServerResponse.json(json.serialized(pretty: true), status: status)
    }

    static func error(_ message: String, status: Int) -> ServerResponse {
        response(
            .object(["errors": .array([.object(["code": .int(10), "title": .string(message)])])]),
            status: status)
    }
}
