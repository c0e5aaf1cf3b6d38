// libFuzzer target for CourierJSONDecoder (Sources/CourierJSON), differential against Foundation.
//
// Not a package target: scripts/fuzz-json.sh compiles this file together with the decoder's sources
// and the differential oracle the unit tests use (Tests/CourierJSONTests/JSONDifferentialCheck.swift).
//
// Oracles, beyond "no crash, no hang, no sanitizer report":
// - every input decodes to the same value with both decoders, or fails with the same DecodingError
//   (case, coding path, type and message), for every model type and configuration of the oracle.
import Foundation

@_cdecl("LLVMFuzzerTestOneInput")
public func jsonDecoderFuzzTestOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let input = Data(UnsafeBufferPointer(start: data, count: size))
    if let mismatch = differentialCheck(input) {
        fatalError("CourierJSONDecoder disagrees with Foundation on \(Array(input)):\n\(mismatch)")
    }
    return 0
}
