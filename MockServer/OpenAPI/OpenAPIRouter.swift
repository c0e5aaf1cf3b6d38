import CourierOpenAPI
import Foundation
import MockServer

/// Finds the operation a request is for: path templates matched segment by segment, under the
/// document's server base paths, literal paths before templated ones.
struct OpenAPIRouter: Sendable {
    struct Route: Sendable {
        var operation: OpenAPIOperation
        /// The template's segments: literal text, or a pattern with variables.
        var segments: [Segment]
        /// How many variables the template has (fewer wins).
        var variables: Int
    }

    enum Segment: Sendable {
        case literal(String)
        /// Literal pieces around variables: `{id}.json` is ["", ".json"] with names ["id"].
        case pattern(pieces: [String], names: [String])
    }

    enum Match {
        case operation(OpenAPIOperation, path: [String: String])
        case methodNotAllowed([String])
        case noRoute
    }

    let routes: [Route]
    /// Server base paths such as `/v1`, longest first; a request may also leave them out.
    let basePaths: [String]

    init(document: OpenAPIDocument) {
        routes = document.operations.map { operation in
            let segments = Self.segments(operation.path)
            let variables = segments.reduce(0) { count, segment in
                if case .pattern(_, let names) = segment { return count + names.count }
                return count
            }
            return Route(operation: operation, segments: segments, variables: variables)
        }
        .sorted { $0.variables < $1.variables }
        basePaths = Self.basePaths(document.root["servers"]).sorted { $0.count > $1.count }
    }

    static func segments(_ template: String) -> [Segment] {
        template.split(separator: "/", omittingEmptySubsequences: false).dropFirst().map { raw in
            guard raw.contains("{") else { return .literal(String(raw)) }
            var pieces: [String] = []
            var names: [String] = []
            var rest = Substring(raw)
            while let open = rest.firstIndex(of: "{"), let close = rest[open...].firstIndex(of: "}") {
                pieces.append(String(rest[..<open]))
                names.append(String(rest[rest.index(after: open)..<close]))
                rest = rest[rest.index(after: close)...]
            }
            pieces.append(String(rest))
            return .pattern(pieces: pieces, names: names)
        }
    }

    /// The path part of each server URL, variables at their defaults: `/v1` for `https://api.example.com/v1`.
    static func basePaths(_ servers: JSONValue?) -> [String] {
        guard case .array(let list) = servers ?? .null else { return [] }
        var paths: [String] = []
        for server in list {
            guard var url = server["url"]?.stringValue else { continue }
            if case .object(let variables) = server["variables"] ?? .null {
                for (name, variable) in variables {
                    url = url.replacingOccurrences(
                        of: "{\(name)}", with: variable["default"]?.stringValue ?? "")
                }
            }
            var path = url
            if let scheme = url.range(of: "://") {
                let afterScheme = url[scheme.upperBound...]
                path = afterScheme.firstIndex(of: "/").map { String(afterScheme[$0...]) } ?? ""
            } else if url.hasPrefix("//") {
                let afterHost = url.dropFirst(2)
                path = afterHost.firstIndex(of: "/").map { String(afterHost[$0...]) } ?? ""
            }
            while path.hasSuffix("/") { path.removeLast() }
            if !path.isEmpty, path.hasPrefix("/"), !paths.contains(path) { paths.append(path) }
        }
        return paths
    }

    func match(method: String, path rawPath: String) -> Match {
        var candidates = [rawPath]
        for base in basePaths where rawPath.hasPrefix(base + "/") || rawPath == base {
            let stripped = String(rawPath.dropFirst(base.count))
            candidates.insert(stripped.isEmpty ? "/" : stripped, at: 0)
        }
        var allowed: [String] = []
        for candidate in candidates {
            let segments = candidate.split(separator: "/", omittingEmptySubsequences: false).dropFirst().map(
                String.init)
            var found: [(Route, [String: String])] = []
            for route in routes {
                if let values = Self.match(route.segments, segments) { found.append((route, values)) }
            }
            guard let best = found.first?.0.variables else { continue }
            // A concrete path wins over a template it also fits (`/pets/mine` over `/pets/{id}`), whatever
            // the method: a method `/pets/mine` lacks gets 405, not `/pets/{id}`'s operation.
            let path = found.first?.0.operation.path
            let specific = found.filter { $0.0.variables == best && $0.0.operation.path == path }
            if let hit = specific.first(where: { $0.0.operation.method == method }) {
                return .operation(hit.0.operation, path: hit.1)
            }
            if method == "HEAD", let get = specific.first(where: { $0.0.operation.method == "GET" }) {
                return .operation(get.0.operation, path: get.1)
            }
            allowed = specific.map(\.0.operation.method)
            break
        }
        return allowed.isEmpty ? .noRoute : .methodNotAllowed(Array(Set(allowed)).sorted())
    }

    /// The raw (still percent-encoded) value of each variable, or nil when the path does not fit.
    static func match(_ template: [Segment], _ segments: [String]) -> [String: String]? {
        guard template.count == segments.count else { return nil }
        var values: [String: String] = [:]
        for (part, segment) in zip(template, segments) {
            switch part {
            case .literal(let text):
                guard text == segment || text == segment.removingPercentEncoding else { return nil }
            case .pattern(let pieces, let names):
                var rest = Substring(segment)
                guard rest.hasPrefix(pieces[0]) else { return nil }
                rest = rest.dropFirst(pieces[0].count)
                for (index, name) in names.enumerated() {
                    let next = pieces[index + 1]
                    let value: Substring
                    if next.isEmpty {
                        value = index == names.count - 1 ? rest : rest.prefix(1)
                    } else if index == names.count - 1 {
                        guard rest.hasSuffix(next) else { return nil }
                        value = rest.dropLast(next.count)
                    } else {
                        guard let range = rest.range(of: next) else { return nil }
                        value = rest[..<range.lowerBound]
                    }
                    guard !value.isEmpty else { return nil }
                    values[name] = String(value)
                    rest = rest.dropFirst(value.count + next.count)
                }
                guard rest.isEmpty else { return nil }
            }
        }
        return values
    }
}
