import CourierPrimitives
import Foundation

extension Pact {
    /// The pact as a version 4 document.
    public var json: JSONValue {
        var metadata = self.metadata
        metadata["pactSpecification"] = .object(["version": .string("4.0")])
        var courier = metadata["courier"]?.objectMembers ?? [:]
        courier["pactWriter"] = .string("CourierPact")
        metadata["courier"] = .object(courier)
        return .object([
            "consumer": .object(["name": .string(consumer)]),
            "provider": .object(["name": .string(provider)]),
            "interactions": .array(interactions.map(\.json)),
            "metadata": .object(metadata),
        ])
    }

    /// The version 4 document as pretty-printed JSON text with sorted keys, so that a file written
    /// twice from the same pact is the same bytes.
    public func encoded() -> Data {
        var data = json.serialized(pretty: true)
        data.append(UInt8(ascii: "\n"))
        return data
    }
}

extension JSONValue {
    var objectMembers: [String: JSONValue]? {
        if case .object(let members) = self { return members }
        return nil
    }
}

extension PactInteraction {
    var json: JSONValue {
        var object: [String: JSONValue] = [
            "type": .string("Synchronous/HTTP"), "description": .string(description),
            "request": request.json, "response": response.json, "pending": .bool(pending),
        ]
        if let key { object["key"] = .string(key) }
        if !providerStates.isEmpty {
            object["providerStates"] = .array(
                providerStates.map { state in
                    var item: [String: JSONValue] = ["name": .string(state.name)]
                    if !state.params.isEmpty { item["params"] = .object(state.params) }
                    return .object(item)
                })
        }
        return .object(object)
    }
}

extension PactRequest {
    var json: JSONValue {
        var object: [String: JSONValue] = ["method": .string(method), "path": .string(path)]
        if !query.isEmpty {
            var members: [String: JSONValue] = [:]
            for (name, values) in query { members[name] = .array(values.map(JSONValue.string)) }
            object["query"] = .object(members)
        }
        if !headers.isEmpty { object["headers"] = headers.json }
        if let body { object["body"] = body.json }
        if !matchingRules.isEmpty { object["matchingRules"] = matchingRules.json }
        if let generators { object["generators"] = generators }
        return .object(object)
    }
}

extension PactResponse {
    var json: JSONValue {
        var object: [String: JSONValue] = ["status": .int(Int64(status))]
        if !headers.isEmpty { object["headers"] = headers.json }
        if let body { object["body"] = body.json }
        if !matchingRules.isEmpty { object["matchingRules"] = matchingRules.json }
        if let generators { object["generators"] = generators }
        return .object(object)
    }
}

extension PactHeaders {
    var json: JSONValue {
        var members: [String: JSONValue] = [:]
        for (name, values) in fields { members[name] = .array(values.map(JSONValue.string)) }
        return .object(members)
    }
}

extension PactBody {
    var json: JSONValue {
        var object: [String: JSONValue] = ["encoded": .bool(false)]
        if let contentType { object["contentType"] = .string(contentType) }
        switch content {
        case .json(let value): object["content"] = value
        case .text(let text): object["content"] = .string(text)
        case .bytes(let data):
            object["content"] = .string(data.base64EncodedString())
            object["encoded"] = .string("base64")
        }
        return .object(object)
    }
}

extension MatchingRules {
    var json: JSONValue {
        var object: [String: JSONValue] = [:]
        for (category, paths) in rules where !paths.isEmpty {
            if category == .path, let list = paths["$"], paths.count == 1 {
                object[category.rawValue] = list.json
            } else {
                object[category.rawValue] = .object(paths.mapValues(\.json))
            }
        }
        return .object(object)
    }
}

extension RuleList {
    var json: JSONValue {
        .object(["combine": .string(combine.rawValue), "matchers": .array(matchers.map(\.json))])
    }
}

extension MatchingRule {
    var json: JSONValue {
        switch self {
        case .equality: Self.matcher("equality")
        case .regex(let regex): Self.matcher("regex", ["regex": .string(regex)])
        case .type: Self.matcher("type")
        case .typeBounded(let min, let max):
            Self.matcher("type", ["min": min.map { .int(Int64($0)) }, "max": max.map { .int(Int64($0)) }])
        case .include(let text): Self.matcher("include", ["value": .string(text)])
        case .integer: Self.matcher("integer")
        case .decimal: Self.matcher("decimal")
        case .number: Self.matcher("number")
        case .boolean: Self.matcher("boolean")
        case .null: Self.matcher("null")
        case .date(let format): Self.matcher("date", ["format": .string(format)])
        case .time(let format): Self.matcher("time", ["format": .string(format)])
        case .dateTime(let format): Self.matcher("datetime", ["format": .string(format)])
        case .values: Self.matcher("values")
        case .notEmpty: Self.matcher("notEmpty")
        case .contentType(let type): Self.matcher("contentType", ["value": .string(type)])
        case .eachKey(let rules): Self.matcher("eachKey", ["rules": .array(rules.map(\.json))])
        case .eachValue(let rules): Self.matcher("eachValue", ["rules": .array(rules.map(\.json))])
        case .statusCode(let status): Self.matcher("statusCode", ["status": status.json])
        case .unsupported(let value): value
        }
    }

    private static func matcher(_ name: String, _ members: [String: JSONValue?] = [:]) -> JSONValue {
        var object = members.compactMapValues { $0 }
        object["match"] = .string(name)
        return .object(object)
    }
}

extension MatchingRule.StatusClass {
    var json: JSONValue {
        switch self {
        case .information: .string("information")
        case .success: .string("success")
        case .redirect: .string("redirect")
        case .clientError: .string("clientError")
        case .serverError: .string("serverError")
        case .nonError: .string("nonError")
        case .error: .string("error")
        case .codes(let codes): .array(codes.map { .int(Int64($0)) })
        }
    }
}
