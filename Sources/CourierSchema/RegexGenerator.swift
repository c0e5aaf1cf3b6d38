import Foundation

/// Makes strings that match a regular expression: the subset API patterns use (literals, classes,
/// `\d \w \s`, groups, alternation, quantifiers, anchors). Lookarounds and back-references are refused.
struct RegexGenerator {
    indirect enum Node {
        case literal(Unicode.Scalar)
        case set([ClosedRange<UInt32>], negated: Bool)
        case alternatives([[Node]])
        case repetition(Node, min: Int, max: Int)
    }

    struct Unsupported: Error {
        var reason: String
    }

    let alternatives: [[Node]]

    /// Parses `pattern`.
    /// - Throws: ``Unsupported`` for what it cannot generate from.
    init(_ pattern: String) throws(Unsupported) {
        var parser = Parser(scalars: Array(pattern.unicodeScalars))
        alternatives = try parser.parseAlternatives()
        guard parser.index == parser.scalars.count else { throw Unsupported(reason: "unbalanced ')'") }
    }

    /// A string the pattern matches, chosen by `random`.
    func generate(using random: inout SeededRandom) -> String {
        var out = String.UnicodeScalarView()
        emit(.alternatives(alternatives), into: &out, random: &random)
        return String(out)
    }

    private static let printable: [ClosedRange<UInt32>] = [0x20...0x7E]

    private func emit(_ node: Node, into out: inout String.UnicodeScalarView, random: inout SeededRandom) {
        switch node {
        case .literal(let scalar):
            out.append(scalar)
        case .set(let ranges, let negated):
            let pool: [ClosedRange<UInt32>]
            if negated {
                let allowed = (UInt32(0x21)...UInt32(0x7E)).filter { code in
                    !ranges.contains { $0.contains(code) }
                }
                pool = allowed.isEmpty ? [0x41...0x41] : allowed.map { $0...$0 }
            } else {
                pool = ranges.isEmpty ? Self.printable : ranges
            }
            let total = pool.reduce(0) { $0 + $1.count }
            var pick = random.int(in: 0...(max(total, 1) - 1))
            for range in pool {
                if pick < range.count {
                    if let scalar = Unicode.Scalar(range.lowerBound + UInt32(pick)) { out.append(scalar) }
                    return
                }
                pick -= range.count
            }
        case .alternatives(let options):
            guard !options.isEmpty else { return }
            for part in options[random.int(in: 0...(options.count - 1))] {
                emit(part, into: &out, random: &random)
            }
        case .repetition(let inner, let low, let high):
            let count = random.int(in: low...max(low, high))
            for _ in 0..<count { emit(inner, into: &out, random: &random) }
        }
    }

    private struct Parser {
        let scalars: [Unicode.Scalar]
        var index = 0

        static let digits: [ClosedRange<UInt32>] = [0x30...0x39]
        static let word: [ClosedRange<UInt32>] = [0x30...0x39, 0x41...0x5A, 0x61...0x7A, 0x5F...0x5F]
        static let space: [ClosedRange<UInt32>] = [0x20...0x20]

        mutating func parseAlternatives() throws(Unsupported) -> [[Node]] {
            var options: [[Node]] = [[]]
            while index < scalars.count {
                let scalar = scalars[index]
                if scalar == "|" {
                    index += 1
                    options.append([])
                    continue
                }
                if scalar == ")" { break }
                guard let atom = try parseAtom() else { continue }
                let node = try parseQuantifier(atom)
                options[options.count - 1].append(node)
            }
            return options
        }

        mutating func parseAtom() throws(Unsupported) -> Node? {
            let scalar = scalars[index]
            index += 1
            switch scalar {
            case "^", "$":
                return nil
            case ".":
                return .set([0x61...0x7A, 0x30...0x39], negated: false)
            case "(":
                if index < scalars.count, scalars[index] == "?" {
                    guard index + 1 < scalars.count else { throw Unsupported(reason: "unterminated group") }
                    let kind = scalars[index + 1]
                    if kind == ":" {
                        index += 2
                    } else if kind == "<", index + 2 < scalars.count, scalars[index + 2] != "=",
                        scalars[index + 2] != "!"
                    {
                        while index < scalars.count, scalars[index] != ">" { index += 1 }
                        index += 1
                    } else {
                        throw Unsupported(reason: "lookaround groups")
                    }
                }
                let inner = try parseAlternatives()
                guard index < scalars.count, scalars[index] == ")" else {
                    throw Unsupported(reason: "unterminated group")
                }
                index += 1
                return .alternatives(inner)
            case "[":
                return try parseSet()
            case "\\":
                return try parseEscape(inSet: false)
            case "*", "+", "?", "{":
                if scalar == "{" { return .literal(scalar) }
                throw Unsupported(reason: "a quantifier with nothing before it")
            default:
                return .literal(scalar)
            }
        }

        mutating func parseEscape(inSet: Bool) throws(Unsupported) -> Node {
            guard index < scalars.count else { throw Unsupported(reason: "a trailing backslash") }
            let scalar = scalars[index]
            index += 1
            switch scalar {
            case "d": return .set(Self.digits, negated: false)
            case "D": return .set(Self.digits, negated: true)
            case "w": return .set(Self.word, negated: false)
            case "W": return .set(Self.word, negated: true)
            case "s": return .set(Self.space, negated: false)
            case "S": return .set([0x21...0x7E], negated: false)
            case "n": return .literal("\n")
            case "t": return .literal("\t")
            case "r": return .literal("\r")
            case "b" where !inSet, "B" where !inSet: return .alternatives([[]])
            case "u":
                let hex = String(String.UnicodeScalarView(scalars[index..<min(index + 4, scalars.count)]))
                guard hex.count == 4, let value = UInt32(hex, radix: 16), let decoded = Unicode.Scalar(value)
                else {
                    throw Unsupported(reason: "a malformed \\u escape")
                }
                index += 4
                return .literal(decoded)
            case "1"..."9": throw Unsupported(reason: "back-references")
            default: return .literal(scalar)
            }
        }

        mutating func parseSet() throws(Unsupported) -> Node {
            var negated = false
            if index < scalars.count, scalars[index] == "^" {
                negated = true
                index += 1
            }
            var ranges: [ClosedRange<UInt32>] = []
            var first = true
            while index < scalars.count, scalars[index] != "]" || first {
                first = false
                var low: UInt32
                if scalars[index] == "\\" {
                    index += 1
                    switch try parseEscape(inSet: true) {
                    case .literal(let scalar): low = scalar.value
                    case .set(let more, let negatedClass):
                        if negatedClass { throw Unsupported(reason: "a negated class inside a set") }
                        ranges += more
                        continue
                    default: continue
                    }
                } else {
                    low = scalars[index].value
                    index += 1
                }
                if index + 1 < scalars.count, scalars[index] == "-", scalars[index + 1] != "]" {
                    index += 1
                    var high = scalars[index].value
                    if scalars[index] == "\\" {
                        index += 1
                        guard case .literal(let scalar) = try parseEscape(inSet: true) else {
                            throw Unsupported(reason: "a class as a range's end")
                        }
                        high = scalar.value
                    } else {
                        index += 1
                    }
                    guard low <= high else { throw Unsupported(reason: "a reversed range") }
                    ranges.append(low...high)
                } else {
                    ranges.append(low...low)
                }
            }
            guard index < scalars.count else { throw Unsupported(reason: "an unterminated set") }
            index += 1
            return .set(ranges, negated: negated)
        }

        mutating func parseQuantifier(_ atom: Node) throws(Unsupported) -> Node {
            guard index < scalars.count else { return atom }
            var low = 1
            var high = 1
            switch scalars[index] {
            case "?": (low, high) = (0, 1)
            case "*": (low, high) = (0, 3)
            case "+": (low, high) = (1, 4)
            case "{":
                guard let close = scalars[index...].firstIndex(of: "}") else { return atom }
                let body = String(String.UnicodeScalarView(scalars[(index + 1)..<close]))
                let parts = body.split(separator: ",", omittingEmptySubsequences: false)
                guard let minimum = Int(parts[0].trimmingCharacters(in: .whitespaces)) else { return atom }
                low = minimum
                high =
                    parts.count == 1
                    ? minimum : Int(parts[1].trimmingCharacters(in: .whitespaces)) ?? minimum + 3
                guard low <= high, high <= 10_000 else {
                    throw Unsupported(reason: "a quantifier over 10000")
                }
                index = close
            default:
                return atom
            }
            index += 1
            if index < scalars.count, scalars[index] == "?" || scalars[index] == "+" { index += 1 }
            return .repetition(atom, min: low, max: high)
        }
    }
}

/// A small deterministic random generator (SplitMix64): the same seed gives the same values everywhere.
public struct SeededRandom: RandomNumberGenerator, Sendable {
    private var state: UInt64

    /// Creates a generator.
    /// - Parameter seed: the seed.
    public init(seed: UInt64) {
        state = seed
    }

    /// The next 64 random bits.
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var mixed = state
        mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
        mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
        return mixed ^ (mixed >> 31)
    }

    /// A random integer in `range`.
    mutating func int(in range: ClosedRange<Int>) -> Int {
        Int.random(in: range, using: &self)
    }

    /// True with probability `chance`.
    mutating func chance(_ chance: Double) -> Bool {
        Double.random(in: 0..<1, using: &self) < chance
    }
}
