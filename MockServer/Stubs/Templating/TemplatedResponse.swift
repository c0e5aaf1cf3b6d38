import CourierPrimitives
import Foundation

/// The templated parts of a response (`transformers: ["response-template"]`, or every stub when the server
/// templates globally), compiled when the mapping is loaded.
struct TemplatedResponse: Sendable {
    /// A `jsonBody` whose strings are templates.
    indirect enum JSONTemplate: Sendable {
        case literal(JSONValue)
        case string(Template)
        case array([JSONTemplate])
        case object([String: JSONTemplate])
    }

    var status: Template?
    /// Every header value, templated or not, in the mapping's order.
    var headers: [(name: String, value: Template)] = []
    var body: Template?
    var jsonBody: JSONTemplate?
    var bodyFileName: Template?
    /// Whether a body file's contents are rendered too (`transformerParameters.disableBodyFileTemplating`
    /// turns it off).
    var rendersBodyFile = true
    /// `transformerParameters`, reachable as `parameters.NAME`.
    var parameters: JSONValue = .object([:])

    /// The name of the only transformer there is.
    static let transformerName = "response-template"

    /// Compiles `text`, naming `location` when it is not a valid template.
    static func compile(_ text: String, at location: String) throws -> Template {
        do {
            return try Template(text)
        } catch {
            throw ValuePattern.InvalidMapping(description: "\(location): invalid template: \(error)")
        }
    }

    static func compileJSON(_ json: JSONValue, at location: String) throws -> JSONTemplate {
        switch json {
        case .string(let text) where Template.mayContainTags(text):
            return .string(try compile(text, at: location))
        case .array(let items):
            return .array(
                try items.enumerated().map { try compileJSON($0.element, at: "\(location)[\($0.offset)]") })
        case .object(let members):
            var compiled: [String: JSONTemplate] = [:]
            for (key, value) in members { compiled[key] = try compileJSON(value, at: "\(location).\(key)") }
            return .object(compiled)
        default:
            return .literal(json)
        }
    }

    // MARK: - Serving

    /// The stub's response with its templates rendered against the request; a 500 naming the template
    /// error when one fails.
    static func response(
        for stub: StubMapping, _ templated: TemplatedResponse, view: RequestView, filesDirectory: URL?,
        now: Date = Date()
    ) -> ServerResponse {
        var response = stub.response.makeResponse(filesDirectory: filesDirectory)
        response.prepared = nil  // rendered per request
        let context = TemplateValue.map([
            "request": requestModel(view, pathTemplate: stub.request.pathTemplate),
            "parameters": TemplateValue(json: templated.parameters),
        ])
        let environment = TemplateEnvironment(now: now)
        var location = "response"
        do {
            if let status = templated.status {
                location = "response.status"
                let text = try status.render(context, environment: environment)
                guard let code = Int(text.trimmingCharacters(in: .whitespaces)),
                    ResponseEncoding.finalStatuses.contains(code)
                else {
                    throw Template.Failure(
                        message: "rendered '\(text)', not a final status code (200-999)", position: nil)
                }
                response.status = code
            }
            if !templated.headers.isEmpty {
                var headers = ServerHeaders()
                for (name, value) in templated.headers {
                    location = "response.headers.\(name)"
                    headers.add(name: name, value: try value.render(context, environment: environment))
                }
                if case .some = templated.jsonBody, !headers.contains("Content-Type") {
                    headers.add(name: "Content-Type", value: "application/json")
                }
                response.headers = headers
            }
            if let body = templated.body {
                location = "response.body"
                response.body = .data(Data(try body.render(context, environment: environment).utf8))
            } else if let jsonBody = templated.jsonBody {
                location = "response.jsonBody"
                response.body = .data(try render(jsonBody, context, environment).serialized())
            } else if let fileName = templated.bodyFileName {
                location = "response.bodyFileName"
                let name = try fileName.render(context, environment: environment)
                // Checked as a literal name is when it loads: a file that is missing or outside the
                // folder is a 500 naming the stub, whether or not the file's contents are templated.
                let file: URL
                do {
                    file = try BodyFile.resolve(
                        name, in: filesDirectory ?? MappingLoader.defaultFilesDirectory)
                } catch {
                    throw Template.Failure(message: error.description, position: nil)
                }
                if templated.rendersBodyFile {
                    // A template is held several times over while it is parsed: a file bigger than what a
                    // render may produce is refused before it is read.
                    let size =
                        (try? FileManager.default.attributesOfItem(atPath: file.path)[.size] as? NSNumber)?
                        .int64Value
                    if let size, size > Int64(environment.maxOutput) {
                        throw Template.Failure(
                            message: "body file \(name) is \(size) bytes; templated files are limited to "
                                + "\(environment.maxOutput)",
                            position: nil)
                    }
                    guard let data = FileManager.default.contents(atPath: file.path) else {
                        throw Template.Failure(message: "no body file \(name)", position: nil)
                    }
                    location = "__files/\(name)"
                    let template = try Template(String(decoding: data, as: UTF8.self))
                    response.body = .data(Data(try template.render(context, environment: environment).utf8))
                } else {
                    response.body = .file(file)
                }
            }
        } catch {
            return .text(
                "Response template error in stub \(stub.label) at \(location): \(error)\n", status: 500)
        }
        return response
    }

    private static func render(
        _ json: JSONTemplate, _ context: TemplateValue, _ environment: TemplateEnvironment
    )
        throws(Template.Failure) -> JSONValue
    {
        switch json {
        case .literal(let value): return value
        case .string(let template): return .string(try template.render(context, environment: environment))
        case .array(let items):
            return .array(
                try items.map { (item) throws(Template.Failure) in try render(item, context, environment) })
        case .object(let members):
            var rendered: [String: JSONValue] = [:]
            for (key, value) in members { rendered[key] = try render(value, context, environment) }
            return .object(rendered)
        }
    }

    // MARK: - The request model

    /// `request.*` as WireMock 3 templates see it.
    static func requestModel(_ view: RequestView, pathTemplate: PathTemplate?) -> TemplateValue {
        let request = view.request
        let rawSegments = request.path.split(separator: "/", omittingEmptySubsequences: false).dropFirst()
        let segments = rawSegments.map { TargetDecoding.percentDecode($0, plusIsSpace: false) }
        var named: [String: TemplateValue] = [:]
        for (name, raw) in pathTemplate?.match(request.path) ?? [:] {
            named[name] = .string(TargetDecoding.percentDecode(raw, plusIsSpace: false))
        }
        let segmentValues = segments.filter { !$0.isEmpty }.map(TemplateValue.string)
        var query: [String: [String]] = [:]
        for pair in request.query { query[pair.name, default: []].append(pair.value) }
        var headers: [String: [String]] = [:]
        var headerOrder: [String: String] = [:]
        for field in request.headers {
            let key = headerOrder[field.name.lowercased()] ?? field.name
            headerOrder[field.name.lowercased()] = key
            headers[key, default: []].append(field.value)
        }
        var cookies: [String: [String]] = [:]
        for (name, value) in view.cookies { cookies[name, default: []].append(value) }
        let hostHeader = request.headers["Host"] ?? "localhost"
        let (host, port) = splitHost(hostHeader)
        let body = view.body
        return .map([
            "url": .string(request.target),
            "path": .composite(request.path, items: segmentValues, members: named),
            "pathSegments": .list(segmentValues),
            "query": .map(query.mapValues(TemplateValue.values)),
            "headers": .map(headers.mapValues(TemplateValue.values)),
            "cookies": .map(cookies.mapValues(TemplateValue.values)),
            "method": .string(request.method),
            "body": .string(String(decoding: body, as: UTF8.self)),
            "bodyAsBase64": .string(body.base64EncodedString()),
            "baseUrl": .string("http://\(hostHeader)"),
            "host": .string(host),
            "port": port.map { .number(Double($0)) } ?? .number(80),
            "scheme": .string("http"),
            "clientIp": .string(
                String(request.remoteAddress.split(separator: ":").dropLast().joined(separator: ":"))),
        ])
    }

    private static func splitHost(_ header: String) -> (String, Int?) {
        if header.hasPrefix("["), let close = header.firstIndex(of: "]") {
            let host = String(header[header.index(after: header.startIndex)..<close])
            let rest = header[header.index(after: close)...]
            return (host, rest.hasPrefix(":") ? Int(rest.dropFirst()) : nil)
        }
        if let colon = header.lastIndex(of: ":") {
            return (String(header[..<colon]), Int(header[header.index(after: colon)...]))
        }
        return (header, nil)
    }
}

extension RequestPattern {
    /// The `urlPathTemplate`, when the pattern has one.
    var pathTemplate: PathTemplate? {
        if case .urlPathTemplate(let template)? = url { return template }
        return nil
    }
}
