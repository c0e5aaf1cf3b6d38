import CourierPrimitives
import Foundation

/// One operation of a document: a method on a path, with its parameters, body, responses and security
/// resolved.
public struct OpenAPIOperation: Sendable {
    /// The method, uppercased: `GET`.
    public var method: String
    /// The path template as the document writes it: `/pets/{petId}`.
    public var path: String
    /// The `operationId`, when there is one.
    public var operationID: String?
    /// Where the operation is: `/paths/~1pets~1{petId}/get`.
    public var pointer: JSONPointer
    /// The operation object, references not followed.
    public var value: JSONValue
    /// The path item's and the operation's parameters, the operation's winning, references followed.
    public var parameters: [OpenAPIParameter]
    /// The request body object, reference followed.
    public var requestBody: JSONValue?
    /// The responses by status (`200`, `4XX`, `default`), references followed.
    public var responses: [String: JSONValue]
    /// The security requirements in force: the operation's, else the document's. Any one of them
    /// (OR) must be met; within one, every scheme (AND). Empty means none needed.
    public var security: [[String: [String]]]
    /// The operation's callbacks by name: the requests the API makes back, each with the URL expression
    /// it is sent to (`{$request.body#/callbackUrl}`) as its path.
    public var callbacks: [String: [OpenAPIOperation]] = [:]
}

/// Where a parameter goes.
public enum OpenAPIParameterLocation: String, Sendable, Hashable, CaseIterable {
    /// A path template variable.
    case path
    /// A query parameter.
    case query
    /// A header field.
    case header
    /// A cookie.
    case cookie
}

/// A parameter of an operation.
public struct OpenAPIParameter: Sendable {
    /// Its name.
    public var name: String
    /// Where it goes.
    public var location: OpenAPIParameterLocation
    /// Whether a request must carry it.
    public var required: Bool
    /// Its serialization style: `form`, `simple`, `label`, `matrix`, `deepObject`, `spaceDelimited`,
    /// `pipeDelimited`; the location's default when the document says none.
    public var style: String
    /// Whether arrays and objects are exploded.
    public var explode: Bool
    /// Its schema (from `schema`, or from the one media type of `content`).
    public var schema: JSONValue?
    /// The media type of a parameter described by `content`, such as `application/json`.
    public var contentType: String?
    /// Where the parameter object is.
    public var pointer: JSONPointer
    /// The parameter object, reference followed.
    public var value: JSONValue
}

extension OpenAPIDocument {
    /// The HTTP methods a path item may hold, in the order operations are listed.
    public static let methods = ["get", "put", "post", "delete", "options", "head", "patch", "trace"]

    /// The operations of the document's webhooks (OpenAPI 3.1): the requests the API sends, each with the
    /// webhook's name as its path, in name order then method order.
    public var webhooks: [OpenAPIOperation] {
        operations(in: root["webhooks"], at: JSONPointer(tokens: ["webhooks"]))
    }

    /// Every operation of the document, in path order then method order.
    public var operations: [OpenAPIOperation] {
        operations(in: root["paths"], at: JSONPointer(tokens: ["paths"]))
    }

    /// The operations of a map of path items (`paths`, `webhooks`, a callback), keyed by what stands
    /// for the path.
    private func operations(in items: JSONValue?, at mapPointer: JSONPointer) -> [OpenAPIOperation] {
        guard case .object(let paths) = items ?? .null else { return [] }
        let globalSecurity = Self.security(root["security"]) ?? []
        var operations: [OpenAPIOperation] = []
        for path in paths.keys.sorted() {
            let itemPointer = mapPointer.appending(path)
            let item = resolve(paths[path] ?? .null)
            let shared = parameters(item["parameters"], at: itemPointer.appending("parameters"))
            for method in Self.methods {
                guard let operation = item[method], case .object = operation else { continue }
                let pointer = itemPointer.appending(method)
                var merged = parameters(operation["parameters"], at: pointer.appending("parameters"))
                for parameter in shared
                where !merged.contains(where: {
                    $0.name == parameter.name && $0.location == parameter.location
                }) {
                    merged.append(parameter)
                }
                var responses: [String: JSONValue] = [:]
                if case .object(let members) = operation["responses"] ?? .null {
                    for (status, response) in members { responses[status] = resolve(response) }
                }
                var callbacks: [String: [OpenAPIOperation]] = [:]
                if case .object(let named) = operation["callbacks"] ?? .null {
                    for (name, callback) in named {
                        let at = pointer.appending("callbacks").appending(name)
                        callbacks[name] = self.operations(in: resolve(callback), at: at)
                    }
                }
                operations.append(
                    OpenAPIOperation(
                        method: method.uppercased(), path: path,
                        operationID: operation["operationId"]?.stringValue,
                        pointer: pointer, value: operation, parameters: merged,
                        requestBody: operation["requestBody"].map(resolve), responses: responses,
                        security: Self.security(operation["security"]) ?? globalSecurity, callbacks: callbacks
                    ))
            }
        }
        return operations
    }

    private func parameters(_ list: JSONValue?, at pointer: JSONPointer) -> [OpenAPIParameter] {
        guard case .array(let items) = list ?? .null else { return [] }
        return items.enumerated().compactMap { index, item in
            let value = resolve(item)
            guard let name = value["name"]?.stringValue,
                let location = value["in"]?.stringValue.flatMap(OpenAPIParameterLocation.init(rawValue:))
            else { return nil }
            let style =
                value["style"]?.stringValue ?? (location == .query || location == .cookie ? "form" : "simple")
            var schema = value["schema"]
            var contentType: String?
            if case .object(let content) = value["content"] ?? .null,
                let (type, media) = content.min(by: { $0.key < $1.key })
            {
                contentType = type
                schema = media["schema"]
            }
            return OpenAPIParameter(
                name: name, location: location,
                required: location == .path || value["required"]?.boolValue == true, style: style,
                explode: value["explode"]?.boolValue ?? (style == "form"), schema: schema,
                contentType: contentType,
                pointer: pointer.appending(index), value: value)
        }
    }

    private static func security(_ value: JSONValue?) -> [[String: [String]]]? {
        guard case .array(let requirements) = value ?? .null else { return nil }
        return requirements.compactMap { requirement in
            guard case .object(let schemes) = requirement else { return nil }
            return schemes.mapValues { scopes in
                if case .array(let items) = scopes { return items.compactMap(\.stringValue) }
                return []
            }
        }
    }
}
