import Foundation

extension Template {
    /// Renders the template with `context` as the root (`this`).
    /// - Parameters:
    ///   - context: the root value, e.g. `{request: …, parameters: …}`.
    ///   - environment: the clock and limits helpers use.
    /// - Throws: ``Failure`` naming the helper or value that failed.
    func render(_ context: TemplateValue, environment: TemplateEnvironment = .init()) throws(Failure)
        -> String
    {
        var renderer = TemplateRenderer(root: context, environment: environment)
        var output = ""
        try renderer.render(nodes, into: &output)
        return output
    }
}

/// What helpers need from outside: the time, and the limits that keep a hostile template cheap.
struct TemplateEnvironment: Sendable {
    /// The time `now` reports.
    var now = Date()
    /// The most nodes and helper calls evaluated in one rendering.
    var maxSteps = 250_000
    /// The most characters one rendering may produce.
    var maxOutput = 16 * 1024 * 1024
}

/// Walks the nodes with a stack of scopes (`this`, block parameters, `@index` and friends).
struct TemplateRenderer {
    typealias Failure = Template.Failure

    struct Scope {
        var context: TemplateValue
        var blockParams: [String: TemplateValue] = [:]
        var data: [String: TemplateValue] = [:]
    }

    private var scopes: [Scope]
    let environment: TemplateEnvironment
    private var steps = 0

    init(root: TemplateValue, environment: TemplateEnvironment) {
        scopes = [Scope(context: root, data: ["root": root])]
        self.environment = environment
    }

    private mutating func step(_ position: Int?) throws(Failure) {
        steps += 1
        if steps > environment.maxSteps {
            throw Failure(
                message: "the template takes more than \(environment.maxSteps) steps", position: position)
        }
    }

    mutating func render(_ nodes: [Template.Node], into output: inout String) throws(Failure) {
        for node in nodes {
            try step(nil)
            switch node {
            case .text(let text):
                output += text
            case .output(let expression, let escaped):
                let text = try evaluate(expression).rendered
                output += escaped ? Self.escapeHTML(text) : text
            case .block(let block):
                try renderBlock(block, into: &output)
            }
            if output.utf8.count > environment.maxOutput {
                throw Failure(
                    message: "the rendered text exceeds \(environment.maxOutput) bytes", position: nil)
            }
        }
    }

    /// Handlebars' default escaping of `{{…}}` output.
    static func escapeHTML(_ text: String) -> String {
        guard text.contains(where: { "&<>\"'`=".contains($0) }) else { return text }
        var escaped = ""
        escaped.reserveCapacity(text.count + 16)
        for character in text {
            switch character {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "\"": escaped += "&quot;"
            case "'": escaped += "&#x27;"
            case "`": escaped += "&#x60;"
            case "=": escaped += "&#x3D;"
            default: escaped.append(character)
            }
        }
        return escaped
    }

    // MARK: - Blocks

    private mutating func renderBlock(_ block: Template.Block, into output: inout String) throws(Failure) {
        let params = try block.params.map { (expression) throws(Failure) in try evaluate(expression) }
        var hash: [String: TemplateValue] = [:]
        for (key, expression) in block.hash { hash[key] = try evaluate(expression) }
        switch block.name {
        case "if", "unless":
            guard params.count == 1 else {
                throw Failure(message: "#\(block.name) takes one argument", position: block.position)
            }
            let truthy = params[0].isTruthy != (block.name == "unless")
            try render(truthy ? block.body : block.inverse ?? [], into: &output)
        case "with":
            guard params.count == 1 else {
                throw Failure(message: "#with takes one argument", position: block.position)
            }
            guard params[0].isTruthy else {
                try render(block.inverse ?? [], into: &output)
                return
            }
            var scope = Scope(context: params[0])
            if let name = block.blockParams.first { scope.blockParams[name] = params[0] }
            scopes.append(scope)
            defer { scopes.removeLast() }
            try render(block.body, into: &output)
        case "each":
            guard params.count == 1 else {
                throw Failure(message: "#each takes one argument", position: block.position)
            }
            let items = params[0].iterationItems
            guard !items.isEmpty else {
                try render(block.inverse ?? [], into: &output)
                return
            }
            for (offset, item) in items.enumerated() {
                var scope = Scope(context: item.value)
                scope.data = [
                    "index": .number(Double(offset)), "first": .bool(offset == 0),
                    "last": .bool(offset == items.count - 1),
                ]
                if let key = item.key { scope.data["key"] = .string(key) }
                if block.blockParams.count > 0 { scope.blockParams[block.blockParams[0]] = item.value }
                if block.blockParams.count > 1 {
                    scope.blockParams[block.blockParams[1]] =
                        item.key.map(TemplateValue.string) ?? .number(Double(offset))
                }
                scopes.append(scope)
                defer { scopes.removeLast() }
                try render(block.body, into: &output)
            }
        default:
            guard TemplateHelpers.conditionals.contains(block.name) else {
                throw Failure(
                    message: "unknown block helper #\(block.name)"
                        + (TemplateHelpers.names.contains(block.name)
                            ? " (\(block.name) is not a block helper)" : ""),
                    position: block.position)
            }
            let value = try TemplateHelpers.call(
                block.name, params, hash, environment: environment, position: block.position)
            try render(value.isTruthy ? block.body : block.inverse ?? [], into: &output)
        }
    }

    // MARK: - Expressions

    mutating func evaluate(_ expression: Template.Expression) throws(Failure) -> TemplateValue {
        try step(nil)
        switch expression {
        case .literal(let value):
            return value
        case .path(let path):
            if !path.isData, !path.isExplicitContext, path.depth == 0, path.segments.count == 1,
                TemplateHelpers.names.contains(path.segments[0]), lookup(path.segments[0]) == nil
            {
                return try TemplateHelpers.call(
                    path.segments[0], [], [:], environment: environment, position: path.position)
            }
            return resolve(path)
        case .call(let name, let paramExpressions, let hashExpressions, let position):
            guard TemplateHelpers.names.contains(name) else {
                throw Failure(message: "unknown helper \(name)", position: position)
            }
            let params = try paramExpressions.map { (expression) throws(Failure) in try evaluate(expression) }
            var hash: [String: TemplateValue] = [:]
            for (key, expression) in hashExpressions { hash[key] = try evaluate(expression) }
            let result = try TemplateHelpers.call(
                name, params, hash, environment: environment, position: position)
            // Nested helpers multiply: each result is held to the limit of the whole render.
            if case .string(let text) = result, text.utf8.count > environment.maxOutput {
                throw Failure(
                    message: "\(name) produced more than the \(environment.maxOutput) bytes a render may",
                    position: position)
            }
            return result
        }
    }

    /// A block parameter named `name` in any open scope.
    private func lookup(_ name: String) -> TemplateValue? {
        for scope in scopes.reversed() {
            if let value = scope.blockParams[name] { return value }
        }
        return nil
    }

    private func resolve(_ path: Template.Path) -> TemplateValue {
        if path.isData {
            guard let name = path.segments.first else { return .null }
            for scope in scopes.reversed() {
                if let value = scope.data[name] { return walk(value, path.segments.dropFirst()) }
            }
            return .null
        }
        let top = scopes.count - 1 - path.depth
        guard top >= 0 else { return .null }
        if path.isExplicitContext || path.segments.isEmpty {
            return walk(scopes[top].context, path.segments[...])
        }
        let first = path.segments[0]
        // Block parameters first, then `this` of each scope outwards (as Handlebars for Java does).
        for index in stride(from: top, through: 0, by: -1) {
            if let value = scopes[index].blockParams[first] { return walk(value, path.segments.dropFirst()) }
        }
        for index in stride(from: top, through: 0, by: -1) {
            let value = scopes[index].context.member(first)
            if value != .null { return walk(value, path.segments.dropFirst()) }
        }
        return .null
    }

    private func walk(_ value: TemplateValue, _ segments: ArraySlice<String>) -> TemplateValue {
        var current = value
        for segment in segments {
            current = current.member(segment)
            if current == .null { return .null }
        }
        return current
    }
}
