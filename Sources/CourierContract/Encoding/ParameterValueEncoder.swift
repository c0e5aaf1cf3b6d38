import Courier
import Foundation

/// Turns any `Encodable` model into a `ParameterValue`, so that query, form and multipart
/// encoders can take typed models instead of `[String: Any]`.
///
/// Dates become ISO 8601 strings (or seconds since 1970), `URL`s their absolute string,
/// `Data` base64, and `Decimal` its exact decimal text. `nil` optionals written with
/// `encodeIfPresent` (the synthesized default) are left out.
public struct ParameterValueEncoder: Sendable {
    /// How `Date` values are written.
    public enum DateEncoding: Sendable, Hashable {
        /// ISO 8601 with time zone, such as `2024-05-01T12:00:00Z`.
        case iso8601
        /// Seconds since 1970 as a number.
        case secondsSince1970
    }

    /// How `Date` values are written. Default `.iso8601`.
    public var dateEncoding: DateEncoding

    /// The encoder with the default settings.
    package static let shared = ParameterValueEncoder()

    /// Creates an encoder.
    public init(dateEncoding: DateEncoding = .iso8601) {
        self.dateEncoding = dateEncoding
    }

    /// Encodes `model`.
    /// - Throws: `CourierError` with code `.invalidParameters` when the model's
    ///   `encode(to:)` throws or writes nothing usable.
    public func encode(_ model: some Encodable) throws -> ParameterValue {
        // The scalars a parameter mostly is, without the encoder's boxes; the same values it makes.
        switch model {
        case let value as ParameterValue: return value
        case let string as String: return .string(string)
        case let int as Int: return .int(int)
        case let bool as Bool: return .bool(bool)
        case let double as Double: return .double(double)
        case let optional as any OptionalType where optional.isNone: return .null
        default: break
        }
        let box = EncodingBox()
        let encoder = BoxEncoder(box: box, codingPath: [], options: self)
        do {
            try encoder.encodeValue(model)
        } catch let error as CourierError {
            throw error
        } catch {
            throw CourierError(
                .invalidParameters, "cannot encode \(type(of: model)) as parameters: \(error)",
                underlying: error)
        }
        return box.value
    }
}

/// The mutable tree the encoder builds. Used by one encoding call on one thread.
final class EncodingBox {
    enum Storage {
        case empty
        case single(ParameterValue)
        case keyed([String: EncodingBox])
        case unkeyed([EncodingBox])
    }

    var storage: Storage = .empty

    var value: ParameterValue {
        switch storage {
        case .empty: .null
        case .single(let value): value
        case .keyed(let children): .object(children.mapValues(\.value))
        case .unkeyed(let children): .array(children.map(\.value))
        }
    }

    func keyedChild(_ key: String) -> EncodingBox {
        var children: [String: EncodingBox] = [:]
        if case .keyed(let existing) = storage { children = existing }
        if let child = children[key] { return child }
        let child = EncodingBox()
        children[key] = child
        storage = .keyed(children)
        return child
    }

    func appendChild() -> EncodingBox {
        var children: [EncodingBox] = []
        if case .unkeyed(let existing) = storage { children = existing }
        let child = EncodingBox()
        children.append(child)
        storage = .unkeyed(children)
        return child
    }

    var unkeyedCount: Int {
        if case .unkeyed(let children) = storage { return children.count }
        return 0
    }
}

struct BoxEncoder: Encoder {
    let box: EncodingBox
    let codingPath: [any CodingKey]
    let options: ParameterValueEncoder
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        if case .keyed = box.storage {} else { box.storage = .keyed([:]) }
        return KeyedEncodingContainer(BoxKeyedContainer<Key>(encoder: self))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        if case .unkeyed = box.storage {} else { box.storage = .unkeyed([]) }
        return BoxUnkeyedContainer(encoder: self)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer { BoxSingleContainer(encoder: self) }

    func child(_ box: EncodingBox, key: any CodingKey) -> BoxEncoder {
        BoxEncoder(box: box, codingPath: codingPath + [key], options: options)
    }

    /// Encodes `value` into this encoder's box, handling Foundation types specially.
    func encodeValue(_ value: some Encodable) throws {
        switch value {
        case let date as Date:
            switch options.dateEncoding {
            case .iso8601: box.storage = .single(.string(date.formatted(.iso8601)))
            case .secondsSince1970: box.storage = .single(.double(date.timeIntervalSince1970))
            }
        case let url as URL: box.storage = .single(.string(url.absoluteString))
        case let data as Data: box.storage = .single(.string(data.base64EncodedString()))
        case let decimal as Decimal: box.storage = .single(.string(decimal.description))
        case let parameter as ParameterValue: box.storage = .single(parameter)
        default: try value.encode(to: self)
        }
    }
}

struct BoxKeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let encoder: BoxEncoder
    var codingPath: [any CodingKey] { encoder.codingPath }

    private func set(_ value: ParameterValue, _ key: Key) {
        encoder.box.keyedChild(key.stringValue).storage = .single(value)
    }

    mutating func encodeNil(forKey key: Key) throws { set(.null, key) }
    mutating func encode(_ value: Bool, forKey key: Key) throws { set(.bool(value), key) }
    mutating func encode(_ value: String, forKey key: Key) throws { set(.string(value), key) }
    mutating func encode(_ value: Double, forKey key: Key) throws { set(.double(value), key) }
    mutating func encode(_ value: Float, forKey key: Key) throws {
        set(.double(Double(String(value)) ?? Double(value)), key)
    }
    mutating func encode(_ value: Int, forKey key: Key) throws { set(.int(value), key) }
    mutating func encode(_ value: Int8, forKey key: Key) throws { set(.int(Int(value)), key) }
    mutating func encode(_ value: Int16, forKey key: Key) throws { set(.int(Int(value)), key) }
    mutating func encode(_ value: Int32, forKey key: Key) throws { set(.int(Int(value)), key) }
    mutating func encode(_ value: Int64, forKey key: Key) throws { set(.int(Int(value)), key) }
    mutating func encode(_ value: UInt, forKey key: Key) throws { set(integer(value), key) }
    mutating func encode(_ value: UInt8, forKey key: Key) throws { set(.int(Int(value)), key) }
    mutating func encode(_ value: UInt16, forKey key: Key) throws { set(.int(Int(value)), key) }
    mutating func encode(_ value: UInt32, forKey key: Key) throws { set(.int(Int(value)), key) }
    mutating func encode(_ value: UInt64, forKey key: Key) throws { set(integer(value), key) }

    mutating func encode(_ value: some Encodable, forKey key: Key) throws {
        let child = encoder.box.keyedChild(key.stringValue)
        try encoder.child(child, key: key).encodeValue(value)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type, forKey key: Key
    ) -> KeyedEncodingContainer<NestedKey> {
        encoder.child(encoder.box.keyedChild(key.stringValue), key: key).container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        encoder.child(encoder.box.keyedChild(key.stringValue), key: key).unkeyedContainer()
    }

    mutating func superEncoder() -> any Encoder {
        let key = AnyCodingKey("super")
        return encoder.child(encoder.box.keyedChild(key.stringValue), key: key)
    }

    mutating func superEncoder(forKey key: Key) -> any Encoder {
        encoder.child(encoder.box.keyedChild(key.stringValue), key: key)
    }
}

struct BoxUnkeyedContainer: UnkeyedEncodingContainer {
    let encoder: BoxEncoder
    var codingPath: [any CodingKey] { encoder.codingPath }
    var count: Int { encoder.box.unkeyedCount }

    private func append(_ value: ParameterValue) { encoder.box.appendChild().storage = .single(value) }

    private func nextEncoder() -> BoxEncoder {
        let key = AnyCodingKey(intValue: count)
        return encoder.child(encoder.box.appendChild(), key: key)
    }

    mutating func encodeNil() throws { append(.null) }
    mutating func encode(_ value: Bool) throws { append(.bool(value)) }
    mutating func encode(_ value: String) throws { append(.string(value)) }
    mutating func encode(_ value: Double) throws { append(.double(value)) }
    mutating func encode(_ value: Float) throws { append(.double(Double(String(value)) ?? Double(value))) }
    mutating func encode(_ value: Int) throws { append(.int(value)) }
    mutating func encode(_ value: Int8) throws { append(.int(Int(value))) }
    mutating func encode(_ value: Int16) throws { append(.int(Int(value))) }
    mutating func encode(_ value: Int32) throws { append(.int(Int(value))) }
    mutating func encode(_ value: Int64) throws { append(.int(Int(value))) }
    mutating func encode(_ value: UInt) throws { append(integer(value)) }
    mutating func encode(_ value: UInt8) throws { append(.int(Int(value))) }
    mutating func encode(_ value: UInt16) throws { append(.int(Int(value))) }
    mutating func encode(_ value: UInt32) throws { append(.int(Int(value))) }
    mutating func encode(_ value: UInt64) throws { append(integer(value)) }

    mutating func encode(_ value: some Encodable) throws { try nextEncoder().encodeValue(value) }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type
    ) -> KeyedEncodingContainer<NestedKey> {
        nextEncoder().container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        nextEncoder().unkeyedContainer()
    }

    mutating func superEncoder() -> any Encoder { nextEncoder() }
}

struct BoxSingleContainer: SingleValueEncodingContainer {
    let encoder: BoxEncoder
    var codingPath: [any CodingKey] { encoder.codingPath }

    private func set(_ value: ParameterValue) { encoder.box.storage = .single(value) }

    mutating func encodeNil() throws { set(.null) }
    mutating func encode(_ value: Bool) throws { set(.bool(value)) }
    mutating func encode(_ value: String) throws { set(.string(value)) }
    mutating func encode(_ value: Double) throws { set(.double(value)) }
    mutating func encode(_ value: Float) throws { set(.double(Double(String(value)) ?? Double(value))) }
    mutating func encode(_ value: Int) throws { set(.int(value)) }
    mutating func encode(_ value: Int8) throws { set(.int(Int(value))) }
    mutating func encode(_ value: Int16) throws { set(.int(Int(value))) }
    mutating func encode(_ value: Int32) throws { set(.int(Int(value))) }
    mutating func encode(_ value: Int64) throws { set(.int(Int(value))) }
    mutating func encode(_ value: UInt) throws { set(integer(value)) }
    mutating func encode(_ value: UInt8) throws { set(.int(Int(value))) }
    mutating func encode(_ value: UInt16) throws { set(.int(Int(value))) }
    mutating func encode(_ value: UInt32) throws { set(.int(Int(value))) }
    mutating func encode(_ value: UInt64) throws { set(integer(value)) }
    mutating func encode(_ value: some Encodable) throws { try encoder.encodeValue(value) }
}

/// An unsigned integer as `.int` when it fits, else as exact decimal text.
private func integer(_ value: some UnsignedInteger) -> ParameterValue {
    if let int = Int(exactly: value) { return .int(int) }
    return .string(String(value))
}
