import Foundation
import Testing

@testable import MockServerOpenAPI

/// Structural checks of files by their format's rules: a PNG's chunks and their CRCs, a PDF's
/// cross-reference offsets, a GIF's, JPEG's and WebP's framing.
enum BinaryFiles {
    static func crc32(_ bytes: some Sequence<UInt8>) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }

    static func bigEndian(_ bytes: [UInt8], _ at: Int) -> UInt32 {
        bytes[at..<at + 4].reduce(0) { $0 << 8 | UInt32($1) }
    }

    /// A PNG signature, then chunks each with a correct CRC, IHDR first and IEND last.
    static func isPNG(_ data: Data) -> Bool {
        let bytes = [UInt8](data)
        guard bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) else { return false }
        var offset = 8
        var types: [String] = []
        while offset + 12 <= bytes.count {
            let length = Int(bigEndian(bytes, offset))
            guard offset + 12 + length <= bytes.count else { return false }
            let typeAndData = bytes[offset + 4..<offset + 8 + length]
            guard crc32(typeAndData) == bigEndian(bytes, offset + 8 + length) else { return false }
            types.append(String(decoding: bytes[offset + 4..<offset + 8], as: UTF8.self))
            offset += 12 + length
        }
        return offset == bytes.count && types.first == "IHDR" && types.last == "IEND"
            && types.contains("IDAT")
    }

    /// `startxref` names the offset of `xref`, whose entries name the offsets of their objects.
    static func isPDF(_ data: Data) -> Bool {
        let text = String(decoding: data, as: UTF8.self)
        guard text.hasPrefix("%PDF-"), text.hasSuffix("%%EOF\n"),
            let start = text.range(of: "startxref\n"),
            let offset = Int(text[start.upperBound...].prefix { $0.isNumber })
        else { return false }
        let bytes = [UInt8](data)
        func at(_ offset: Int, _ prefix: String) -> Bool {
            offset < bytes.count && bytes[offset...].starts(with: Array(prefix.utf8))
        }
        guard at(offset, "xref") else { return false }
        let entries = text.split(separator: "\n").filter { $0.hasSuffix(" n ") }
        return !entries.isEmpty
            && entries.enumerated().allSatisfy { index, entry in
                at(Int(entry.prefix(10)) ?? -1, "\(index + 1) 0 obj")
            }
    }

    /// SOI, marker segments of the lengths they state up to the scan, EOI at the end.
    static func isJPEG(_ data: Data) -> Bool {
        let bytes = [UInt8](data)
        guard bytes.starts(with: [0xFF, 0xD8]), bytes.suffix(2) == [0xFF, 0xD9] else { return false }
        var offset = 2
        var markers: [UInt8] = []
        while offset + 4 <= bytes.count, bytes[offset] == 0xFF {
            let marker = bytes[offset + 1]
            markers.append(marker)
            let length = Int(bytes[offset + 2]) << 8 | Int(bytes[offset + 3])
            if marker == 0xDA { break }
            offset += 2 + length
        }
        return markers.contains(0xC0) && markers.contains(0xDB) && markers.last == 0xDA
    }
}

@Suite struct BinaryBodiesTests {
    @Test func eachSampleIsAFileOfItsType() throws {
        #expect(BinaryFiles.isPNG(try #require(BinaryBodies.samples["image/png"]).file))
        #expect(BinaryFiles.isJPEG(try #require(BinaryBodies.samples["image/jpeg"]).file))
        #expect(BinaryFiles.isPDF(try #require(BinaryBodies.samples["application/pdf"]).file))
        let gif = [UInt8](try #require(BinaryBodies.samples["image/gif"]).file)
        #expect(gif.starts(with: Array("GIF87a".utf8)) && gif.last == 0x3B)
        #expect(gif[6] == 1 && gif[8] == 1, "1×1")
        let webp = [UInt8](try #require(BinaryBodies.samples["image/webp"]).file)
        #expect(webp.starts(with: Array("RIFF".utf8)) && webp[8..<12].elementsEqual("WEBP".utf8))
        #expect(Int(BinaryFiles.bigEndian(Array(webp[4..<8].reversed()), 0)) == webp.count - 8, "RIFF size")
    }

    @Test func aValueThatIsAlreadyAFileIsSentAsItIs() throws {
        let png = try #require(BinaryBodies.samples["image/png"]).file
        var longer = png
        longer.append(contentsOf: [0, 1, 2])
        #expect(BinaryBodies.bytes(for: .string(longer.base64EncodedString()), as: "image/png") == longer)
        #expect(BinaryBodies.bytes(for: .string("12 ASCII bytes"), as: "image/png") == png)
        #expect(
            BinaryBodies.bytes(for: .string("%PDF-1.7 mine"), as: "application/pdf")
                == Data("%PDF-1.7 mine".utf8))
        #expect(
            BinaryBodies.bytes(for: .string("x"), as: "image/jpg") == BinaryBodies.samples["image/jpeg"]?.file
        )
        #expect(BinaryBodies.bytes(for: .string("x"), as: "application/octet-stream") == nil)
    }
}
