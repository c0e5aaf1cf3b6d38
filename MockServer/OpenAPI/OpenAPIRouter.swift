import CourierOpenAPI
import CourierPrimitives
import Foundation
import MockServer

/// Finds the operation a request is for: `PathRouter` over the document's path templates, under the
/// document's server base paths.
struct OpenAPIRouter: Sendable {
    enum Match {
        case operation(OpenAPIOperation, path: [String: String])
        case methodNotAllowed([String])
        case noRoute
    }

    let router: PathRouter<OpenAPIOperation>
    /// Server base paths such as `/v1`, longest first; a request may also leave them out.
    let basePaths: [String]

    init(document: OpenAPIDocument) {
        router = PathRouter(document.operations.map { (method: $0.method, template: $0.path, value: $0) })
        basePaths = Self.basePaths(document.root["servers"]).sorted { $0.count > $1.count }
    }

    /// How many operations are routed.
    var count: Int { router.routes.count }

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

    /// The operation for `method` and a still percent-encoded path, with each path variable's raw
    /// value; the path without a server's base path is tried first.
    func match(method: String, path rawPath: String) -> Match {
        var candidates = [rawPath]
        for base in basePaths where rawPath.hasPrefix(base + "/") || rawPath == base {
            let stripped = String(rawPath.dropFirst(base.count))
            candidates.insert(stripped.isEmpty ? "/" : stripped, at: 0)
        }
        for candidate in candidates {
            switch router.match(method: method, path: candidate) {
            case .noRoute: continue
            case .methodNotAllowed(let allowed): return .methodNotAllowed(allowed)
            case .route(let operation, let raw): return .operation(operation, path: raw)
            }
        }
        return .noRoute
    }
}
