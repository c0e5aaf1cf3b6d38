import CourierPrimitives
import Foundation

extension HAR {
    /// A HAR 1.2 document whose entries are the exchanges that `mappings` replay: the request each
    /// matches (its `url`, method and literal body) and the response it gives.
    /// - Parameters:
    ///   - mappings: WireMock mappings with literal responses (a cassette's, or ones made from a HAR).
    ///   - baseURL: the scheme and host the entries' URLs get.
    /// - Returns: the document.
    public static func document(fromMappings mappings: [JSONValue], baseURL: URL) -> JSONValue {
        let base =
            baseURL.absoluteString.hasSuffix("/")
            ? String(baseURL.absoluteString.dropLast()) : baseURL.absoluteString
        let entries = mappings.map { mapping -> JSONValue in
            let request = mapping["request"] ?? .object([:])
            let response = mapping["response"] ?? .object([:])
            let method = request["method"]?.stringValue.map { $0 == "ANY" ? "GET" : $0 } ?? "GET"
            let target = request["url"]?.stringValue ?? request["urlPath"]?.stringValue ?? "/"
            var body: String?
            var bodyType = "text/plain"
            if case .array(let patterns)? = request["bodyPatterns"], let first = patterns.first {
                if let json = first["equalToJson"] {
                    body = String(decoding: json.serialized(pretty: false), as: UTF8.self)
                    bodyType = "application/json"
                } else {
                    body = first["equalTo"]?.stringValue
                }
            }
            var headers: [JSONValue] = []
            var mimeType = ""
            if case .object(let fields)? = response["headers"] {
                for (name, value) in fields.sorted(by: { $0.key < $1.key }) {
                    let values: [String]
                    switch value {
                    case .array(let items): values = items.compactMap(\.stringValue)
                    default: values = value.stringValue.map { [$0] } ?? []
                    }
                    for item in values {
                        headers.append(.object(["name": .string(name), "value": .string(item)]))
                        if name.lowercased() == "content-type" { mimeType = item }
                    }
                }
            }
            var content: [String: JSONValue] = ["mimeType": .string(mimeType)]
            var size = 0
            if let text = response["body"]?.stringValue {
                content["text"] = .string(text)
                size = text.utf8.count
            } else if let json = response["jsonBody"] {
                let text = String(decoding: json.serialized(pretty: false), as: UTF8.self)
                content["text"] = .string(text)
                size = text.utf8.count
            } else if let encoded = response["base64Body"]?.stringValue {
                content["text"] = .string(encoded)
                content["encoding"] = .string("base64")
                size = Data(base64Encoded: encoded)?.count ?? 0
            }
            content["size"] = .int(Int64(size))
            let status = response["status"]?.intValue ?? 200
            return entry(
                method: method, url: base + target, requestHeaders: [], body: body, bodyType: bodyType,
                status: status, responseHeaders: headers, content: .object(content), size: size)
        }
        return document(entries)
    }

    /// One HAR entry.
    static func entry(
        method: String, url: String, requestHeaders: [JSONValue], body: String?, bodyType: String,
        status: Int,
        responseHeaders: [JSONValue], content: JSONValue, size: Int,
        started: Date = Date(timeIntervalSince1970: 0)
    ) -> JSONValue {
        let query: [JSONValue] = (URLComponents(string: url)?.queryItems ?? []).map {
            .object(["name": .string($0.name), "value": .string($0.value ?? "")])
        }
        var request: [String: JSONValue] = [
            "method": .string(method), "url": .string(url), "httpVersion": .string("HTTP/1.1"),
            "cookies": .array([]), "headers": .array(requestHeaders), "queryString": .array(query),
            "headersSize": .int(-1), "bodySize": .int(Int64(body?.utf8.count ?? 0)),
        ]
        if let body { request["postData"] = .object(["mimeType": .string(bodyType), "text": .string(body)]) }
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return .object([
            "startedDateTime": .string(formatter.string(from: started)), "time": .int(0),
            "request": .object(request),
            "response": .object([
                "status": .int(Int64(status)), "statusText": .string(""), "httpVersion": .string("HTTP/1.1"),
                "cookies": .array([]), "headers": .array(responseHeaders), "content": content,
                "redirectURL": .string(""), "headersSize": .int(-1), "bodySize": .int(Int64(size)),
            ]),
            "cache": .object([:]),
            "timings": .object(["send": .int(0), "wait": .int(0), "receive": .int(0)]),
        ])
    }

    /// A HAR 1.2 document around `entries`.
    static func document(_ entries: [JSONValue]) -> JSONValue {
        .object([
            "log": .object([
                "version": .string("1.2"),
                "creator": .object(["name": .string("Courier"), "version": .string("1.0")]),
                "entries": .array(entries),
            ])
        ])
    }
}
