/// Finds the route a method and path belong to, as an OpenAPI document routes: the path first, then the
/// method. Of the templates a path fits, the one with the fewest variables wins (`/pets/mine` over
/// `/pets/{id}`), then the one whose first literal comes earliest (`/a/b/{y}` over `/a/{x}/c`), then
/// the first declared; a method that path lacks is a 405, never another path's route. Templates that
/// differ only in their variables' names (`/pets/{id}`, `/pets/{petId}`) are one path.
package struct PathRouter<Value: Sendable>: Sendable {
    /// One route: a method, a template and what it serves.
    package struct Route: Sendable {
        package var method: String
        package var template: PathTemplate
        package var value: Value
        /// Its place in the order given, the last tiebreak.
        var order: Int
    }

    /// The outcome of routing a request.
    package enum Match {
        /// A route matched, with each variable's raw (still percent-encoded) value.
        case route(Value, raw: [String: String])
        /// The path exists but not for this method; the methods it has, sorted.
        case methodNotAllowed([String])
        /// No template fits the path.
        case noRoute
    }

    /// The routes, most specific first.
    package let routes: [Route]

    /// A router over `routes`, each an uppercased method, a template and its value.
    package init(_ routes: [(method: String, template: String, value: Value)]) {
        self.routes = routes.enumerated().map { order, route in
            Route(
                method: route.method.uppercased(), template: PathTemplate(route.template), value: route.value,
                order: order)
        }
        .sorted(by: Self.moreSpecific)
    }

    private static func moreSpecific(_ lhs: Route, _ rhs: Route) -> Bool {
        if lhs.template.variableCount != rhs.template.variableCount {
            return lhs.template.variableCount < rhs.template.variableCount
        }
        for (left, right) in zip(lhs.template.segments, rhs.template.segments) {
            switch (left, right) {
            case (.literal, .pattern): return true
            case (.pattern, .literal): return false
            default: continue
            }
        }
        return lhs.order < rhs.order
    }

    /// Routes `method` and a still percent-encoded `path` (no query). HEAD goes where GET does when the
    /// path has no HEAD of its own (RFC 9110 §9.3.2).
    package func match(method: String, path: String) -> Match {
        guard let segments = PathTemplate.segments(of: path) else { return .noRoute }
        guard let (first, _) = firstFit(segments) else { return .noRoute }
        let shape = first.template.shape
        var allowed: [String] = []
        var get: (Route, [String: String])?
        let wanted = method.uppercased()
        for route in routes where route.template.shape == shape {
            guard let raw = route.template.match(segments: segments) else { continue }
            if route.method == wanted { return .route(route.value, raw: raw) }
            if route.method == "GET", get == nil { get = (route, raw) }
            allowed.append(route.method)
        }
        if wanted == "HEAD", let (route, raw) = get { return .route(route.value, raw: raw) }
        return .methodNotAllowed(Array(Set(allowed)).sorted())
    }

    private func firstFit(_ segments: [Substring]) -> (Route, [String: String])? {
        for route in routes {
            if let raw = route.template.match(segments: segments) { return (route, raw) }
        }
        return nil
    }
}
