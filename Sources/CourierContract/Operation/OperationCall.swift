import Courier
import CourierContractModel
import CourierPrimitives
import Foundation

/// A call of a declared operation built from text arguments, as a command line gives them:
/// what `courier call` sends, for any API.
///
/// Each argument is named after a parameter (`--pageNumber 1`), or, for a JSON body, after a
/// top-level property of the body's model (`--email a@b.c`); `--body '{…}'` gives the whole
/// body instead. A binary body takes `--file PATH`; a multipart file field takes
/// `--FIELD PATH`. Values are checked against the declared schemas before anything is sent.
package struct OperationCall: APIConfigurable {
    /// The operation called.
    package let operation: APIOperation
    package let method: HTTPMethod
    package let path: EndpointPath
    package let parameters: any ParameterConvertible
    package let headers: HTTPHeaders

    /// Builds the call.
    /// - Throws: `CourierError` `.invalidParameters` naming the argument that is unknown,
    ///   missing or breaks its schema.
    package init(_ operation: APIOperation, arguments: [String: String]) throws {
        self.operation = operation
        method = operation.method
        var remaining = arguments
        var query: [String: ParameterValue] = [:]
        var headers = HTTPHeaders()
        var segments: [String: String] = [:]
        for parameter in operation.parameters {
            // A declared default is the server's to apply: an argument left out is not sent.
            guard let text = remaining.removeValue(forKey: parameter.name) else {
                if parameter.required { throw Self.problem("--\(parameter.name) is required", operation) }
                continue
            }
            if let reason = parameter.schema.violation(ofText: text) {
                throw Self.problem("--\(parameter.name) \(reason)", operation)
            }
            switch parameter.location {
            case .path: segments[parameter.name] = try PathComponent(text).encoded
            case .query: query[parameter.name] = Self.value(text, parameter.schema)
            case .header: headers[parameter.name] = text
            }
        }
        var parts: [any ParameterConvertible] = query.isEmpty ? [] : [URLQuery(query)]
        if let body = operation.body {
            parts.append(try Self.body(body, from: &remaining, operation))
        }
        if let unknown = remaining.keys.sorted().first {
            throw Self.problem(
                "\(operation.id) takes no --\(unknown); it takes: \(Self.usage(operation))", operation)
        }
        path = EndpointPath(PathTemplate.fill(operation.path, with: segments))
        parameters = CombinedParameters(parts)
        self.headers = headers
    }

    /// The arguments an operation takes, as `--name <type>`, optional ones in brackets.
    package static func usage(_ operation: APIOperation) -> String {
        var words = operation.parameters.map { parameter in
            let word = "--\(parameter.name) <\(typeName(parameter.schema))>"
            return parameter.required ? word : "[\(word)]"
        }
        switch operation.body {
        case .json(let schema), .form(let schema), .multipart(let schema, _):
            if case .object(let properties, let required) = unwrap(schema) {
                words += properties.map { property in
                    let word = "--\(property.name) <\(typeName(property.schema))>"
                    return required.contains(property.name) ? word : "[\(word)]"
                }
            }
            if case .json = operation.body { words.append("[--body <json>]") }
        case .binary: words.append("--file <path>")
        case .multipartFile(let field, _): words.append("--\(field) <path>")
        case nil: break
        }
        return words.isEmpty ? "nothing" : words.joined(separator: " ")
    }

    /// One line per operation: id, method, path, arguments, and whether it needs a token.
    package static func listing(_ operations: [APIOperation]) -> String {
        operations.map { operation in
            operation.id.padding(toLength: 21, withPad: " ", startingAt: 0)
                + operation.method.rawValue.padding(toLength: 7, withPad: " ", startingAt: 0)
                + operation.path.padding(toLength: 24, withPad: " ", startingAt: 0) + usage(operation)
                + (operation.requiresAuth ? " (token)" : "")
        }.joined(separator: "\n")
    }

    /// What `call ID --help` prints: the operation, then one line per argument with its type,
    /// whether it is required, its default and what it means.
    package static func help(_ operation: APIOperation, program: String) -> String {
        var lines = [
            "\(operation.id): \(operation.summary)", "",
            "\(operation.method.rawValue) \(operation.path)"
                + (operation.requiresAuth ? " (needs --token)" : ""),
            "", "usage: \(program) \(operation.id) \(usage(operation))", "", "arguments:",
        ]
        func line(_ name: String, _ schema: Schema?, _ notes: [String], _ summary: String) {
            let left = "--\(name)" + (schema.map { " <\(typeName($0))>" } ?? "")
            let detail = ([summary] + notes).filter { !$0.isEmpty }.joined(separator: "; ")
            lines.append(
                "  " + left.padding(toLength: max(28, left.count + 2), withPad: " ", startingAt: 0) + detail)
        }
        for parameter in operation.parameters {
            var notes = [parameter.required ? "required" : "optional", "in \(parameter.location.rawValue)"]
            if let value = parameter.defaultValue { notes.append("default \(value)") }
            if let rule = rules(parameter.schema) { notes.append(rule) }
            line(parameter.name, parameter.schema, notes, parameter.summary)
        }
        switch operation.body {
        case .json(let schema), .form(let schema), .multipart(let schema, _):
            if case .object(let properties, let required) = unwrap(schema) {
                for property in properties {
                    var notes = [required.contains(property.name) ? "required" : "optional", "body property"]
                    if let rule = rules(property.schema) { notes.append(rule) }
                    line(property.name, property.schema, notes, "")
                }
            }
            if case .json = operation.body {
                line("body", nil, ["the whole JSON body instead of the properties"], "<json>")
            }
        case .binary(let types, let base64):
            line(
                "file", nil, ["the body, as \(types.joined(separator: " or "))\(base64 ? " in base64" : "")"],
                "<path>")
        case .multipartFile(let field, let types):
            line(
                field, nil, ["a file sent as \(types.joined(separator: " or ")) in a multipart form"],
                "<path>")
        case nil: break
        }
        if lines.last == "arguments:" { lines.append("  none") }
        return lines.joined(separator: "\n")
    }

    /// The bounds, length and format of a scalar schema, as help shows them.
    private static func rules(_ schema: Schema) -> String? {
        switch unwrap(schema) {
        case .integer(let minimum, let maximum):
            switch (minimum, maximum) {
            case (let low?, let high?): return "\(low) to \(high)"
            case (let low?, nil): return "at least \(low)"
            case (nil, let high?): return "at most \(high)"
            case (nil, nil): return nil
            }
        case .string(let rules):
            var parts: [String] = []
            if let format = rules.format { parts.append(format) }
            if let low = rules.minLength, let high = rules.maxLength {
                parts.append("\(low) to \(high) characters")
            } else if let low = rules.minLength, low > 0 {
                parts.append("at least \(low) characters")
            } else if let high = rules.maxLength {
                parts.append("at most \(high) characters")
            }
            if let prefix = rules.prefix { parts.append("starts with \(prefix)") }
            return parts.isEmpty ? nil : parts.joined(separator: ", ")
        default: return nil
        }
    }

    private static func body(
        _ body: APIOperation.Body, from arguments: inout [String: String], _ operation: APIOperation
    ) throws -> any ParameterConvertible {
        switch body {
        case .json(let schema):
            let value: JSONValue
            if let text = arguments.removeValue(forKey: "body") {
                guard let parsed = try? JSONValue.parse(Data(text.utf8)) else {
                    throw problem("--body is not valid JSON", operation)
                }
                value = parsed
            } else {
                guard case .object(let properties, _) = unwrap(schema) else {
                    throw problem("--body is required", operation)
                }
                var members: [String: JSONValue] = [:]
                for property in properties {
                    guard let text = arguments.removeValue(forKey: property.name) else { continue }
                    members[property.name] = jsonValue(text, property.schema)
                }
                value = .object(members)
            }
            if let violation = schema.violation(of: value, at: "") {
                throw problem(
                    "--\(violation.path.isEmpty ? "body" : violation.path) \(violation.message)", operation)
            }
            return JSONBody(value)
        case .binary(let types, let base64):
            guard let path = arguments.removeValue(forKey: "file") else {
                throw problem("--file is required", operation)
            }
            let contentType =
                arguments.removeValue(forKey: "contentType") ?? types.first ?? "application/octet-stream"
            return FileBody(URL(fileURLWithPath: path), contentType: contentType, base64: base64)
        case .form(let schema):
            var values: [String: ParameterValue] = [:]
            for (name, text, schema) in try fields(of: schema, from: &arguments, operation) {
                values[name] = value(text, schema)
            }
            return FormBody(values, arrays: .repeatedKeys)
        case .multipart(let schema, let fileTypes):
            var parts: [MultipartForm.Part] = []
            for (name, text, _) in try fields(of: schema, from: &arguments, operation) {
                if let types = fileTypes[name] {
                    parts.append(filePart(name, path: text, types: types))
                } else {
                    parts.append(.init(name: name, content: .data(Data(text.utf8))))
                }
            }
            return MultipartForm(parts: parts)
        case .multipartFile(let field, let types):
            guard let path = arguments.removeValue(forKey: field) else {
                throw problem("--\(field) is required", operation)
            }
            return MultipartForm(parts: [filePart(field, path: path, types: types)])
        }
    }

    /// The form fields given as arguments (taken out of `arguments`): each property's name, text and
    /// schema; a required one missing is a problem.
    private static func fields(
        of schema: Schema, from arguments: inout [String: String], _ operation: APIOperation
    ) throws -> [(name: String, text: String, schema: Schema)] {
        guard case .object(let properties, let required) = unwrap(schema) else { return [] }
        var found: [(name: String, text: String, schema: Schema)] = []
        for property in properties {
            guard let text = arguments.removeValue(forKey: property.name) else {
                if required.contains(property.name) {
                    throw problem("--\(property.name) is required", operation)
                }
                continue
            }
            found.append((property.name, text, property.schema))
        }
        return found
    }

    /// A file part, typed by the file's extension among `types`, else by the first of them.
    private static func filePart(_ name: String, path: String, types: [String]) -> MultipartForm.Part {
        let file = URL(fileURLWithPath: path)
        let byExtension = types.first { $0.hasSuffix("/" + file.pathExtension.lowercased()) }
        return .init(
            name: name, filename: file.lastPathComponent,
            contentType: byExtension ?? types.first ?? "application/octet-stream", content: .file(file))
    }

    private static func unwrap(_ schema: Schema) -> Schema {
        if case .model(_, let inner) = schema { return unwrap(inner) }
        return schema
    }

    private static func value(_ text: String, _ schema: Schema) -> ParameterValue {
        switch unwrap(schema) {
        case .integer: Int(text).map(ParameterValue.int) ?? .string(text)
        case .boolean: text == "true" ? .bool(true) : text == "false" ? .bool(false) : .string(text)
        default: .string(text)
        }
    }

    private static func jsonValue(_ text: String, _ schema: Schema) -> JSONValue {
        switch unwrap(schema) {
        case .integer: Int64(text).map(JSONValue.int) ?? .string(text)
        case .number: Double(text).map(JSONValue.double) ?? .string(text)
        case .boolean: text == "true" ? .bool(true) : text == "false" ? .bool(false) : .string(text)
        case .array, .object, .map, .any: (try? JSONValue.parse(Data(text.utf8))) ?? .string(text)
        default: .string(text)
        }
    }

    private static func typeName(_ schema: Schema) -> String {
        switch unwrap(schema) {
        case .integer: "int"
        case .number: "number"
        case .boolean: "bool"
        case .enumeration(let values): values.joined(separator: "|")
        case .array, .object, .map, .any: "json"
        default: "string"
        }
    }

    private static func problem(_ message: String, _ operation: APIOperation) -> CourierError {
        CourierError(.invalidParameters, message)
    }
}
