import { Disclosure } from "./ui/disclosure.tsx";
import { TextField } from "./ui/field.tsx";

/** The checkout's optional GSTIN, folded away: only businesses need it, for a B2B tax invoice. */
export function GstinField() {
  return (
    <Disclosure summary="Buying for a business? Add your GSTIN">
      <div className="mt-3 max-w-sm">
        <TextField
          label="GSTIN (optional)"
          name="gstin"
          autoComplete="off"
          maxLength={20}
          placeholder="29ABCDE1234F1Z5"
          hint="Printed on your tax invoice. A business registered in another state pays the same GST, as IGST."
        />
      </div>
    </Disclosure>
  );
}
