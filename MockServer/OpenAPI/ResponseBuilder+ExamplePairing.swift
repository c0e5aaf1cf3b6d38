import CourierOpenAPI
import CourierPrimitives
import Foundation
import MockServer

extension ResponseBuilder {
    /// The response example named as the request example the body matches: a body equal to one of the
    /// request's named examples, else the one sharing the most top-level members with it, picks the
    /// response example of the same name (the document's way to pair a request with its answer).
    /// - Parameters:
    ///   - named: the response media type's named examples.
    ///   - schema: the response schema the example must hold against.
    /// - Returns: nil when the body matches no request example, or the pair has no valid response example.
    func pairedExample(
        _ named: [(String, JSONValue)], operation: OpenAPIOperation, request: ServerRequest,
        schema: JSONValue?
    ) -> JSONValue? {
        guard !named.isEmpty, let requestBody = operation.requestBody.map(document.resolve),
            case .object(let content) = requestBody["content"] ?? .null,
            let contentType = request.headers["Content-Type"],
            let media = MediaTypes.declared(for: contentType, in: content.keys.sorted()),
            case .object(let examples) = content[media]?["examples"] ?? .null
        else { return nil }
        let sent: JSONValue
        if MediaTypes.isJSON(contentType), case .success(let value) = request.bodyJSON {
            sent = value
        } else if MediaTypes.essence(contentType).hasPrefix("text/") {
            sent = .string(String(decoding: request.body, as: UTF8.self))
        } else {
            return nil
        }
        let candidates = examples.sorted { $0.key < $1.key }.compactMap { name, example in
            document.resolve(example)["value"].map { (name, $0) }
        }
        let name: String
        if let equal = candidates.first(where: { $0.1 == sent }) {
            name = equal.0
        } else {
            guard case .object(let members) = sent else { return nil }
            let scored = candidates.map { name, value -> (String, Int) in
                guard case .object(let example) = value else { return (name, 0) }
                return (name, example.filter { members[$0.key] == $0.value }.count)
            }
            // The single best; a tie names no pair.
            guard let best = scored.max(by: { $0.1 < $1.1 }), best.1 > 0,
                scored.filter({ $0.1 == best.1 }).count == 1
            else { return nil }
            name = best.0
        }
        guard let paired = named.first(where: { $0.0 == name })?.1,
            schema.map({ validator.isValid(paired, against: $0) }) ?? true
        else { return nil }
        return paired
    }
}
