import CourierPrimitives
import Foundation

/// The `response` half of a mapping.
struct ResponseDefinition: Sendable {
    enum Body: Sendable {
        case none
        case data(Data)
        case file(String)
    }

    enum DelayDistribution: Sendable {
        case uniform(lower: Double, upper: Double)
        case lognormal(median: Double, sigma: Double, maxValue: Double?)
        case fixed(Double)
    }

    /// The longest delay a mapping or setting may ask for: a day.
    static let maxDelayMilliseconds: Double = 86_400_000

    var status = 200
    var statusMessage: String?
    var headers = ServerHeaders()
    var body = Body.none
    var fixedDelayMilliseconds: Double = 0
    var delayDistribution: DelayDistribution?
    var dribble: ChunkedDribble?
    var fault: ServerFault?
    var eventStream: EventStreamBody?
    /// The body file's location, resolved once when the stub is installed.
    var resolvedFile: URL?
    /// The compiled templates, when the response is templated.
    var templated: TemplatedResponse?
    /// Where to forward the request, when the stub proxies.
    var proxy: ProxySettings?
    /// The response's serialised head, made when the stub is installed (see ``prepare()``).
    var prepared: PreparedResponse?

    /// Serialises the head once, for a response that is the same on every request: one without
    /// templates or proxying, whose body file (if any) is resolved. Called when the stub is installed,
    /// after its last change; delays, dribbles and faults are applied per request around it.
    mutating func prepare() {
        prepared = nil
        guard templated == nil, proxy == nil else { return }
        let preparedBody: PreparedResponse.Body
        switch body {
        case .none: preparedBody = .empty
        case .data(let data): preparedBody = .data(data)
        case .file:
            guard let resolvedFile else { return }
            preparedBody = .file(path: resolvedFile.path)
        }
        prepared = PreparedResponse(
            status: status, reason: statusMessage, headers: headers, body: preparedBody)
    }

    /// Reads a `response` object.
    /// - Parameters:
    ///   - json: the object.
    ///   - location: its path, for messages.
    ///   - globalTemplating: whether every response is a template, without `transformers`.
    ///   - filesDirectory: the files folder a `bodyFileName` without template tags must name a file
    ///     in; nil checks the name's form only.
    /// - Throws: ``ValuePattern/InvalidMapping`` naming the first problem (an invalid template, a
    ///   missing body file or one outside the files folder included).
    static func parse(
        _ json: JSONValue, at location: String, globalTemplating: Bool = false, filesDirectory: URL? = nil
    ) throws -> ResponseDefinition {
        guard case .object(let members) = json else {
            throw ValuePattern.InvalidMapping(description: "\(location) must be an object")
        }
        try MappingKeys.check(members, allowed: MappingKeys.response, at: location)
        let isTemplated =
            try MappingKeys.checkTransformers(members["transformers"], at: location) || globalTemplating
        var definition = ResponseDefinition()
        if let status = members["status"] {
            if let code = status.intValue, ResponseEncoding.finalStatuses.contains(code) {
                definition.status = code
            } else if isTemplated, let text = status.stringValue, Template.mayContainTags(text) {
                // Compiled with the other templates below; rendered per request.
            } else {
                throw ValuePattern.InvalidMapping(
                    description:
                        "\(location).status must be a final status code (200-999)"
                        + (isTemplated
                            ? " or a template" : " (a template needs transformers: [\"response-template\"])"))
            }
        }
        definition.statusMessage = members["statusMessage"]?.stringValue
        if case .object(let headers)? = members["headers"] {
            for name in headers.keys.sorted() {
                switch headers[name] {
                case .array(let values)?:
                    for value in values { definition.headers.add(name: name, value: value.matchText) }
                case let value?:
                    definition.headers.add(name: name, value: value.matchText)
                case nil:
                    break
                }
            }
        }
        let bodyKeys = ["body", "jsonBody", "base64Body", "bodyFileName"].filter { members[$0] != nil }
        if bodyKeys.count > 1 {
            throw ValuePattern.InvalidMapping(
                description: "\(location): use only one of \(bodyKeys.joined(separator: ", "))")
        }
        if let body = members["body"] {
            definition.body = .data(Data(body.matchText.utf8))
        } else if let json = members["jsonBody"] {
            definition.body = .data(json.serialized())
            if definition.headers["Content-Type"] == nil {
                definition.headers.add(name: "Content-Type", value: "application/json")
            }
        } else if let base64 = members["base64Body"] {
            guard let text = base64.stringValue, let data = Data(base64Encoded: text) else {
                throw ValuePattern.InvalidMapping(description: "\(location).base64Body is not valid base64")
            }
            definition.body = .data(data)
        } else if let file = members["bodyFileName"] {
            guard let name = file.stringValue else {
                throw ValuePattern.InvalidMapping(description: "\(location).bodyFileName must be a string")
            }
            do {
                try BodyFile.checkSyntax(name)
                // A templated name is known per request only, and checked then.
                if let filesDirectory, !(isTemplated && Template.mayContainTags(name)) {
                    definition.resolvedFile = try BodyFile.resolve(name, in: filesDirectory)
                }
            } catch {
                let folder = filesDirectory.map { " (\($0.path))" } ?? ""
                throw ValuePattern.InvalidMapping(description: "\(location).bodyFileName: \(error)\(folder)")
            }
            definition.body = .file(name)
        }
        if let delay = members["fixedDelayMilliseconds"] {
            guard let value = delay.doubleValue, value >= 0, value <= maxDelayMilliseconds else {
                throw ValuePattern.InvalidMapping(
                    description:
                        "\(location).fixedDelayMilliseconds must be a number from 0 to \(Int(maxDelayMilliseconds))"
                )
            }
            definition.fixedDelayMilliseconds = value
        }
        if let distribution = members["delayDistribution"] {
            definition.delayDistribution = try parseDistribution(
                distribution, "\(location).delayDistribution")
        }
        if let dribble = members["chunkedDribbleDelay"] {
            if case .object(let keys) = dribble {
                try MappingKeys.check(
                    keys, allowed: MappingKeys.dribble, at: "\(location).chunkedDribbleDelay")
            }
            guard let chunks = dribble["numberOfChunks"]?.intValue, chunks >= 1,
                let total = dribble["totalDuration"]?.doubleValue, total >= 0, total <= maxDelayMilliseconds
            else {
                throw ValuePattern.InvalidMapping(
                    description:
                        "\(location).chunkedDribbleDelay needs numberOfChunks ≥ 1 and totalDuration (ms, at most a day)"
                )
            }
            definition.dribble = ChunkedDribble(numberOfChunks: chunks, totalDuration: .milliseconds(total))
        }
        if let stream = members["eventStream"] {
            if !bodyKeys.isEmpty || members["chunkedDribbleDelay"] != nil {
                throw ValuePattern.InvalidMapping(
                    description:
                        "\(location).eventStream is the body: drop \((bodyKeys + ["chunkedDribbleDelay"]).filter { members[$0] != nil }.joined(separator: ", "))"
                )
            }
            definition.eventStream = try EventStreamBody.parse(stream, at: "\(location).eventStream")
            if definition.headers["Content-Type"] == nil {
                definition.headers.add(name: "Content-Type", value: "text/event-stream")
            }
            if definition.headers["Cache-Control"] == nil {
                definition.headers.add(name: "Cache-Control", value: "no-cache")
            }
        }
        if let fault = members["fault"] {
            guard let name = fault.stringValue, let value = ServerFault(rawValue: name) else {
                throw ValuePattern.InvalidMapping(
                    description:
                        "\(location).fault must be one of \(ServerFault.allCases.map(\.rawValue).joined(separator: ", "))"
                )
            }
            definition.fault = value
        }
        if let parameters = members["transformerParameters"], !isTemplated {
            _ = parameters
            throw ValuePattern.InvalidMapping(
                description:
                    "\(location).transformerParameters: only templates read them; add transformers: [\"response-template\"]"
            )
        }
        definition.proxy = try ProxySettings.parse(members, at: location)
        if isTemplated { definition.templated = try compileTemplates(members, at: location) }
        return definition
    }

    /// Compiles every templated part of a response.
    private static func compileTemplates(_ members: [String: JSONValue], at location: String) throws
        -> TemplatedResponse
    {
        var templated = TemplatedResponse()
        if let status = members["status"]?.stringValue, Template.mayContainTags(status) {
            templated.status = try TemplatedResponse.compile(status, at: "\(location).status")
        }
        if case .object(let headers)? = members["headers"] {
            for name in headers.keys.sorted() {
                let values: [JSONValue]
                switch headers[name] {
                case .array(let list)?: values = list
                case let value?: values = [value]
                case nil: values = []
                }
                for value in values {
                    templated.headers.append(
                        (
                            name,
                            try TemplatedResponse.compile(value.matchText, at: "\(location).headers.\(name)")
                        ))
                }
            }
        }
        if let body = members["body"] {
            templated.body = try TemplatedResponse.compile(body.matchText, at: "\(location).body")
        } else if let json = members["jsonBody"] {
            templated.jsonBody = try TemplatedResponse.compileJSON(json, at: "\(location).jsonBody")
        } else if let name = members["bodyFileName"]?.stringValue {
            templated.bodyFileName = try TemplatedResponse.compile(name, at: "\(location).bodyFileName")
        }
        if let parameters = members["transformerParameters"] {
            guard case .object = parameters else {
                throw ValuePattern.InvalidMapping(
                    description: "\(location).transformerParameters must be an object")
            }
            templated.parameters = parameters
            templated.rendersBodyFile = parameters["disableBodyFileTemplating"]?.boolValue != true
        }
        return templated
    }

    static func parseDistribution(_ json: JSONValue, _ location: String) throws -> DelayDistribution {
        if case .object(let members) = json {
            let keys: Set<String> =
                switch json["type"]?.stringValue {
                case "uniform": ["type", "lower", "upper"]
                case "lognormal": ["type", "median", "sigma", "maxValue"]
                case "fixed": ["type", "milliseconds"]
                default: ["type"]
                }
            try MappingKeys.check(members, allowed: keys, at: location)
        }
        switch json["type"]?.stringValue {
        case "uniform":
            guard let lower = json["lower"]?.doubleValue, let upper = json["upper"]?.doubleValue, lower >= 0,
                upper >= lower, upper <= maxDelayMilliseconds
            else {
                throw ValuePattern.InvalidMapping(
                    description: "\(location): uniform needs 0 ≤ lower ≤ upper ≤ \(Int(maxDelayMilliseconds))"
                )
            }
            return .uniform(lower: lower, upper: upper)
        case "lognormal":
            guard let median = json["median"]?.doubleValue, let sigma = json["sigma"]?.doubleValue,
                median >= 0, sigma >= 0
            else {
                throw ValuePattern.InvalidMapping(
                    description: "\(location): lognormal needs median and sigma ≥ 0")
            }
            return .lognormal(median: median, sigma: sigma, maxValue: json["maxValue"]?.doubleValue)
        case "fixed":
            guard let milliseconds = json["milliseconds"]?.doubleValue, milliseconds >= 0,
                milliseconds <= maxDelayMilliseconds
            else {
                throw ValuePattern.InvalidMapping(
                    description:
                        "\(location): fixed needs milliseconds from 0 to \(Int(maxDelayMilliseconds))")
            }
            return .fixed(milliseconds)
        default:
            throw ValuePattern.InvalidMapping(
                description: "\(location).type must be uniform, lognormal or fixed")
        }
    }

    /// A delay sampled from the distribution, in milliseconds.
    static func sample(_ distribution: DelayDistribution, using generator: inout some RandomNumberGenerator)
        -> Double
    {
        switch distribution {
        case .fixed(let milliseconds):
            return milliseconds
        case .uniform(let lower, let upper):
            return lower == upper ? lower : Double.random(in: lower...upper, using: &generator)
        case .lognormal(let median, let sigma, let maxValue):
            // Box–Muller for a standard normal sample.
            let u1 = Double.random(in: Double.ulpOfOne..<1, using: &generator)
            let u2 = Double.random(in: 0..<1, using: &generator)
            let normal = (-2 * Foundation.log(u1)).squareRoot() * Foundation.cos(2 * Double.pi * u2)
            let value = median * Foundation.exp(sigma * normal)
            let capped = maxValue.map { min($0, value) } ?? value
            // A sample has no bound of its own (and may be infinite): a delay is at most a day.
            return capped.isFinite ? min(capped, maxDelayMilliseconds) : maxDelayMilliseconds
        }
    }

    /// The server response this definition describes.
    func makeResponse(filesDirectory: URL?) -> ServerResponse {
        var response = ServerResponse(status: status, reason: statusMessage, headers: headers)
        switch body {
        case .none:
            break
        case .data(let data):
            response.body = .data(data)
        case .file(let name):
            let directory = filesDirectory ?? MappingLoader.defaultFilesDirectory
            response.body = .file(resolvedFile ?? directory.appendingPathComponent(name))
        }
        var delay = fixedDelayMilliseconds
        if let delayDistribution {
            var generator = SystemRandomNumberGenerator()
            delay += Self.sample(delayDistribution, using: &generator)
        }
        if delay > 0 { response.delay = .milliseconds(min(delay, 2 * Self.maxDelayMilliseconds)) }
        response.dribble = dribble
        response.fault = fault
        response.eventStream = eventStream
        response.prepared = prepared
        return response
    }
}
