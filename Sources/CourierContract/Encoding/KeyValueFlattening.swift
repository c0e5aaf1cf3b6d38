import Courier

/// How arrays are written in a query or a form.
public enum ArrayEncoding: Sendable, Hashable {
    /// `tags[]=a&tags[]=b` (the default; Rails, PHP and Alamofire read it).
    case brackets
    /// `tags=a&tags=b`.
    case repeatedKeys
    /// `tags[0]=a&tags[1]=b`.
    case indexed
}

/// How booleans are written in a query or a form.
public enum BoolEncoding: Sendable, Hashable {
    /// `true` / `false` (the default).
    case literal
    /// `1` / `0`.
    case numeric
}

/// How `.null` values are written in a query or a form.
public enum NullEncoding: Sendable, Hashable {
    /// The key is left out (the default), as for a `nil` optional.
    case dropKey
    /// The key is written with an empty value: `key=`.
    case emptyValue
}

/// The key rules shared by `URLQuery` and `FormBody`.
package struct KeyValueEncoding: Sendable, Hashable {
    /// How arrays are written.
    package var arrays: ArrayEncoding
    /// How booleans are written.
    package var bools: BoolEncoding
    /// How nulls are written.
    package var nulls: NullEncoding

    /// Creates key rules.
    package init(
        arrays: ArrayEncoding = .brackets, bools: BoolEncoding = .literal, nulls: NullEncoding = .dropKey
    ) {
        self.arrays = arrays
        self.bools = bools
        self.nulls = nulls
    }

    /// Flattens `parameters` into unencoded `(key, value)` pairs: keys sorted at every
    /// level, nested objects as `a[b]`, arrays as `arrays` says. Empty arrays and objects
    /// produce nothing.
    package func pairs(_ parameters: [String: ParameterValue]) -> [(key: String, value: String)] {
        var result: [(key: String, value: String)] = []
        for key in parameters.keys.sorted() {
            if let value = parameters[key] { flatten(value, key: key, into: &result) }
        }
        return result
    }

    private func flatten(
        _ value: ParameterValue, key: String, into result: inout [(key: String, value: String)]
    ) {
        switch value {
        case .object(let object):
            for name in object.keys.sorted() {
                if let child = object[name] { flatten(child, key: "\(key)[\(name)]", into: &result) }
            }
        case .array(let array):
            for (index, element) in array.enumerated() {
                let elementKey =
                    switch arrays {
                    case .brackets: "\(key)[]"
                    case .repeatedKeys: key
                    case .indexed: "\(key)[\(index)]"
                    }
                flatten(element, key: elementKey, into: &result)
            }
        case .null:
            if nulls == .emptyValue { result.append((key, "")) }
        case .bool(let bool):
            result.append((key, bools == .numeric ? (bool ? "1" : "0") : (bool ? "true" : "false")))
        case .string, .int, .double:
            result.append((key, value.scalarText ?? ""))
        }
    }
}

/// Parameters as an object, whether given as a dictionary or as an `Encodable` model.
enum ParameterSource: Sendable {
    case values([String: ParameterValue])
    case model(any Encodable & Sendable, ParameterValueEncoder)

    /// The parameters as a dictionary.
    /// - Throws: `.invalidParameters` when a model does not encode to an object.
    func object(for what: String) throws -> [String: ParameterValue] {
        switch self {
        case .values(let values): return values
        case .model(let model, let encoder):
            let value = try encoder.encode(model)
            switch value {
            case .object(let object): return object
            case .null: return [:]
            default:
                throw CourierError(
                    .invalidParameters,
                    "\(what) needs a model that encodes to keyed values; \(type(of: model)) encodes to \(value.kindName)"
                )
            }
        }
    }
}

extension ParameterValue {
    var kindName: String {
        switch self {
        case .string: "a string"
        case .int, .double: "a number"
        case .bool: "a boolean"
        case .null: "null"
        case .array: "an array"
        case .object: "an object"
        }
    }
}
