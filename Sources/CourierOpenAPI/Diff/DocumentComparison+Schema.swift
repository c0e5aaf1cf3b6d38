import CourierPrimitives
import Foundation

/// Where a schema sits in an operation, for rule ids and messages.
struct Place {
    enum Side: String { case request, response }
    enum Level: String { case parameter, body, property }

    var side: Side
    var level: Level
    /// The parameter's name, or the property's path (`items[]/id`); empty for a body.
    var name: String
    /// Said after the place: the parameter's location, or the response's status.
    var detail: String
    /// Whether the client may leave the value out (an optional request property): it then sends no
    /// null either, whatever its document allows.
    var omittable = false

    /// The rule id for `change` here, such as `response-property-type-changed`.
    func rule(_ change: String) -> String { "\(side.rawValue)-\(level.rawValue)-\(change)" }

    var label: String {
        switch level {
        case .body: "the \(side.rawValue) body\(detail)"
        default: "the \(side.rawValue) \(level.rawValue) '\(name)'\(detail)"
        }
    }

    /// The place of the property `name` inside this one.
    func property(_ child: String) -> Place {
        Place(
            side: side, level: level == .parameter ? .parameter : .property,
            name: name.isEmpty ? child : name + "/" + child, detail: detail)
    }
}

extension DocumentComparison {
    /// Whether every value of `types` is also of `allowed` (an integer is a number).
    private static func fits(_ types: Set<String>?, in allowed: Set<String>?) -> Bool {
        guard let allowed else { return true }
        guard let types else { return false }
        return types.allSatisfy { allowed.contains($0) || ($0 == "integer" && allowed.contains("number")) }
    }

    /// The bounds each integer format stands for (`uint64` has no maximum a bound here can say).
    private static let widths: [String: (minimum: Double, maximum: Double?)] = [
        "int8": (Double(Int8.min), Double(Int8.max)), "int16": (Double(Int16.min), Double(Int16.max)),
        "int32": (Double(Int32.min), Double(Int32.max)), "uint8": (0, Double(UInt8.max)),
        "uint16": (0, Double(UInt16.max)), "uint32": (0, Double(UInt32.max)), "uint64": (0, nil),
    ]

    /// Whether `values` fit the integer or number format `format` without saying it: an integer within
    /// the bounds of its width (`int8`…`uint64`) or any integer for `int64`, a number for `float` or
    /// `double` (a precision, not a rule).
    private static func fitsWidth(_ format: String, _ values: SchemaView) -> Bool {
        guard let types = values.types, !types.isEmpty, values.format == nil else { return false }
        switch format {
        case "float", "double": return types.isSubset(of: ["number", "integer"])
        case "int64": return types == ["integer"]
        default:
            guard let width = widths[format], types == ["integer"], let minimum = values.minimum,
                minimum >= width.minimum
            else { return false }
            guard let maximum = width.maximum else { return true }
            return values.maximum.map { $0 <= maximum } == true
        }
    }

    private static func describe(_ types: Set<String>?) -> String {
        types.map { $0.isEmpty ? "nothing" : $0.sorted().joined(separator: " or ") } ?? "any type"
    }

    /// Compares the client's schema with the provider's. For a response the provider's values must
    /// be ones the client decodes; for a request the client's values must be ones the provider
    /// accepts.
    mutating func compareSchema(
        _ ours: JSONValue, _ ourPointer: String, _ theirs: JSONValue, _ theirPointer: String, _ place: Place
    ) throws(OpenAPIDocumentError) {
        let mine = try SchemaView(ours, at: ourPointer, in: client)
        let their = try SchemaView(theirs, at: theirPointer, in: provider)
        guard compared.insert("\(place.side)|\(mine.pointer)|\(their.pointer)").inserted else { return }
        let (a, b) = (mine.pointer, their.pointer)
        let response = place.side == .response
        // The values that flow: the provider's into the client for a response, the other way for a request.
        let (sent, read) = response ? (their, mine) : (mine, their)
        if !Self.fits(sent.types, in: read.types) {
            note(
                place.rule("type-changed"),
                "\(place.label) changed type from \(Self.describe(mine.types)) to \(Self.describe(their.types))",
                a, b)
            return
        }
        if sent.nullable, !read.nullable, !place.omittable {
            note(
                place.rule(response ? "became-nullable" : "became-not-nullable"),
                "\(place.label) became \(response ? "nullable" : "not nullable")", a, b)
        }
        // A format the reader relies on must be the one sent; raw bytes are the same with or without
        // the 3.0 spelling `binary`, and an integer's width is said by its bounds as well.
        if let format = read.format, sent.format != format, !(format == "binary" && sent.format == nil),
            !Self.fitsWidth(format, sent)
        {
            note(
                place.rule("type-changed"),
                "\(place.label) changed format from \(mine.format ?? "none") to \(their.format ?? "none")", a,
                b)
        }
        compareEnums(mine, their, place)
        if !response { compareBounds(mine, their, place) }
        if let ourItems = mine.items, let theirItems = their.items {
            try compareSchema(
                ourItems.schema, ourItems.pointer, theirItems.schema, theirItems.pointer,
                Place(
                    side: place.side, level: place.level == .body ? .property : place.level,
                    name: place.name + "[]", detail: place.detail))
        }
        if let ourMembers = mine.additional, let theirMembers = their.additional {
            try compareSchema(
                ourMembers.schema, ourMembers.pointer, theirMembers.schema, theirMembers.pointer,
                place.property("*"))
        }
        try compareProperties(mine, their, place)
    }

    private mutating func compareEnums(_ mine: SchemaView, _ their: SchemaView, _ place: Place) {
        let (a, b) = (mine.pointer, their.pointer)
        func text(_ values: [JSONValue]) -> String { values.map(\.text).joined(separator: ", ") }
        if place.side == .response {
            guard let known = mine.enumValues else { return }
            guard let offered = their.enumValues else {
                note(
                    place.rule("enum-value-added"), "\(place.label) is no longer limited to \(text(known))",
                    a, b)
                return
            }
            let added = offered.filter { !known.contains($0) }
            let removed = known.filter { !offered.contains($0) }
            if !added.isEmpty {
                note(
                    place.rule("enum-value-added"),
                    "\(place.label) may now be \(text(added)), which the client does not decode", a, b)
            }
            if !removed.isEmpty {
                note(
                    place.rule("enum-value-removed"), "\(place.label) is no longer \(text(removed))", a, b,
                    harmless: true)
            }
        } else {
            guard let accepted = their.enumValues else { return }
            guard let sent = mine.enumValues else {
                note(
                    place.rule("enum-value-removed"), "\(place.label) is now limited to \(text(accepted))", a,
                    b)
                return
            }
            let removed = sent.filter { !accepted.contains($0) }
            let added = accepted.filter { !sent.contains($0) }
            if !removed.isEmpty {
                note(
                    place.rule("enum-value-removed"), "\(place.label) no longer accepts \(text(removed))", a,
                    b)
            }
            if !added.isEmpty {
                note(
                    place.rule("enum-value-added"), "\(place.label) also accepts \(text(added))", a, b,
                    harmless: true)
            }
        }
    }

    /// Bounds and patterns of a request value: the provider may not accept less than the client sends.
    private mutating func compareBounds(_ mine: SchemaView, _ their: SchemaView, _ place: Place) {
        let (a, b) = (mine.pointer, their.pointer)
        func show(_ value: Double?) -> String {
            guard let value else { return "none" }
            return value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)
        }
        if let theirs = their.minimum, theirs > (mine.minimum ?? -.infinity) {
            note(
                place.rule("min-increased"),
                "\(place.label) minimum rose from \(show(mine.minimum)) to \(show(theirs))", a, b)
        }
        if let theirs = their.maximum, theirs < (mine.maximum ?? .infinity) {
            note(
                place.rule("max-decreased"),
                "\(place.label) maximum fell from \(show(mine.maximum)) to \(show(theirs))", a, b)
        }
        // Length and pattern hold only for strings: on a schema that allows no string they limit nothing.
        guard their.types.map({ $0.contains("string") }) ?? true else { return }
        if let theirs = their.minLength, theirs > (mine.minLength ?? 0) {
            note(
                place.rule("min-length-increased"),
                "\(place.label) minLength rose from \(mine.minLength ?? 0) to \(theirs)", a, b)
        }
        if let theirs = their.maxLength, theirs < (mine.maxLength ?? .max) {
            note(
                place.rule("max-length-decreased"),
                "\(place.label) maxLength fell from \(mine.maxLength.map(String.init) ?? "none") to \(theirs)",
                a, b)
        }
        if let theirs = their.pattern, theirs != mine.pattern {
            note(
                place.rule(mine.pattern == nil ? "pattern-added" : "pattern-changed"),
                "\(place.label) must now match \(theirs)", a, b)
        }
    }

    private mutating func compareProperties(_ mine: SchemaView, _ their: SchemaView, _ place: Place)
        throws(OpenAPIDocumentError)
    {
        let (a, b) = (mine.pointer, their.pointer)
        let theirsListsProperties = !their.properties.isEmpty || their.types == ["object"]
        for name in mine.properties.keys.sorted() {
            guard let ours = mine.properties[name] else { continue }
            let child = place.property(name)
            guard let theirs = their.properties[name] else {
                if place.side == .response, mine.required.contains(name), !their.required.contains(name),
                    theirsListsProperties
                {
                    note(
                        child.rule("removed").replacingOccurrences(
                            of: "-property-removed", with: "-required-property-removed"),
                        "\(child.label) is gone", ours.pointer, b)
                } else if place.side == .response, theirsListsProperties, their.additional == nil {
                    note(
                        "response-optional-property-removed",
                        "\(child.label) is gone (the client has it optional)", ours.pointer, b, harmless: true
                    )
                }
                continue
            }
            if place.side == .response, mine.required.contains(name), !their.required.contains(name) {
                note(child.rule("became-optional"), "\(child.label) became optional", a + "/required", b)
            }
            if place.side == .request, their.required.contains(name), !mine.required.contains(name) {
                note(child.rule("became-required"), "\(child.label) became required", a, b + "/required")
            }
            var inner = child
            inner.omittable = place.side == .request && !mine.required.contains(name)
            try compareSchema(ours.schema, ours.pointer, theirs.schema, theirs.pointer, inner)
        }
        for name in their.properties.keys.sorted() where mine.properties[name] == nil {
            guard let theirs = their.properties[name] else { continue }
            let child = place.property(name)
            let required = their.required.contains(name)
            if place.side == .request {
                if required {
                    note(
                        "new-required-request-property", "\(child.label) is new and required", a,
                        theirs.pointer)
                } else {
                    note(
                        "new-optional-request-property", "\(child.label) is new and optional", a,
                        theirs.pointer, harmless: true)
                }
            } else {
                note(
                    required ? "response-required-property-added" : "response-optional-property-added",
                    "\(child.label) is new", a, theirs.pointer, harmless: true)
            }
        }
        if place.side == .request {
            for name in their.required.sorted()
            where their.properties[name] == nil && mine.properties[name] == nil {
                note(
                    "new-required-request-property", "\(place.property(name).label) is new and required", a,
                    b + "/required")
            }
        }
    }
}
