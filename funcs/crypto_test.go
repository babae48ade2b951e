package funcs

import (
	"bytes"
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"encoding/base64"
	"encoding/pem"
	"strings"
	"testing"

	"github.com/zclconf/go-cty/cty"
	"golang.org/x/crypto/bcrypt"

	"github.com/tfeval/tfeval/dialect"
)

func TestCrypto(t *testing.T) {
	bothDialects(t, []fnCase{
		{expr: `md5("")`, want: `"d41d8cd98f00b204e9800998ecf8427e"`},
		{expr: `sha1("hello world")`, want: `"2aae6c35c94fcfb415dbe95f408b9ce91ee846ed"`},
		{expr: `sha256("hello world")`, want: `"b94d27b9934d3e08a52e52d7da7dabfac484efe37a5380ee9088f7ace2efcde9"`},
		{expr: `base64sha256("hello world")`, want: `"uU0nuZNNPgilLlLX2n2r+sSE7+N6U4DukIj3rOLvzek="`},
		{expr: `sha256(null)`, err: `Invalid value for "str" parameter: argument must not be null.`},
		{expr: `sha256(secret)`, want: `(sensitive value)`},
		{expr: `sha256(unk_str)`, want: `(known after apply)`},
		{expr: `sha256(unk_str) == null`, want: `false`},
		{expr: `uuidv5("dns", "www.terraform.io")`, want: `"a5008fae-b28c-5ba5-96cd-82b4c53552d6"`},
		{expr: `uuidv5("6ba7b810-9dad-11d1-80b4-00c04fd430c8", "www.terraform.io")`, want: `"a5008fae-b28c-5ba5-96cd-82b4c53552d6"`},
		{expr: `uuidv5("not-a-uuid", "x")`, err: `uuidv5() doesn't support namespace not-a-uuid (invalid UUID length: 10).`},
		{expr: `length(bcrypt("hello", 4))`, want: `60`},
		{expr: `rsadecrypt("!!", "k")`, err: `failed to decode input "!!": cipher text must be base64-encoded`},
		{expr: `rsadecrypt("AAAA", "not a key")`, err: `Invalid value for "privatekey" parameter: invalid private key: ssh: no key found.`},
	})
	runCases(t, dialect.Terraform, []fnCase{
		{expr: `bcrypt("hello", 32)`, err: `error occured generating password crypto/bcrypt: cost 32 is outside allowed inclusive range 4..31.`},
	})
	runCases(t, dialect.Tofu, []fnCase{
		{expr: `bcrypt("hello", 32)`, err: `error occurred generating password crypto/bcrypt: cost 32 is outside allowed inclusive range 4..31.`},
	})
}

func TestBcryptMatchesReference(t *testing.T) {
	for _, cost := range []int{2, 4, 5} {
		hash, err := bcryptHash([]byte("correct horse"), cost, rand.Reader)
		if err != nil {
			t.Fatal(err)
		}
		if err := bcrypt.CompareHashAndPassword(hash, []byte("correct horse")); err != nil {
			t.Errorf("cost %d: x/crypto/bcrypt rejects our hash %s: %v", cost, hash, err)
		}
		wantCost := cost
		if cost < bcryptMinCost {
			wantCost = bcryptDefaultCost
		}
		if got, _ := bcrypt.Cost(hash); got != wantCost {
			t.Errorf("cost %d: hash has cost %d, want %d", cost, got, wantCost)
		}
	}
	if _, err := bcryptHash(bytes.Repeat([]byte("x"), 73), 4, rand.Reader); err == nil {
		t.Error("73-byte password accepted")
	}
}

func TestDeterministicRandomness(t *testing.T) {
	opts := func() Options {
		return Options{Rand: bytes.NewReader(bytes.Repeat([]byte{7}, 64))}
	}
	for _, expr := range []string{`uuid()`, `bcrypt("pw", 4)`} {
		a, diags := evalWith(opts(), expr)
		if diags.HasErrors() {
			t.Fatal(diags)
		}
		b, _ := evalWith(opts(), expr)
		if !a.RawEquals(b) {
			t.Errorf("%s differs with the same Rand: %#v vs %#v", expr, a, b)
		}
	}
	v, _ := evalWith(opts(), `uuid()`)
	if got := v.AsString(); got != "07070707-0707-0707-0707-070707070707" {
		t.Errorf("uuid() = %s", got)
	}
}

func TestPureOnlyImpureFunctionsAreUnknown(t *testing.T) {
	for _, expr := range []string{`uuid()`, `timestamp()`, `bcrypt("x")`} {
		v, diags := evalWith(Options{PureOnly: true}, expr)
		if diags.HasErrors() {
			t.Fatalf("%s: %s", expr, diags)
		}
		if v.IsKnown() || !v.Type().Equals(cty.String) {
			t.Errorf("%s with PureOnly = %#v, want unknown string", expr, v)
		}
	}
}

func TestRSADecrypt(t *testing.T) {
	key, err := rsa.GenerateKey(rand.Reader, 1024)
	if err != nil {
		t.Fatal(err)
	}
	ct, err := rsa.EncryptPKCS1v15(rand.Reader, &key.PublicKey, []byte("secret message"))
	if err != nil {
		t.Fatal(err)
	}
	pemKey := pem.EncodeToMemory(&pem.Block{Type: "RSA PRIVATE KEY", Bytes: x509.MarshalPKCS1PrivateKey(key)})
	v, err := rsaDecryptFunc.Call([]cty.Value{cty.StringVal(base64.StdEncoding.EncodeToString(ct)), cty.StringVal(string(pemKey))})
	if err != nil {
		t.Fatal(err)
	}
	if v.AsString() != "secret message" {
		t.Errorf("rsadecrypt = %q", v.AsString())
	}
	_, err = rsaDecryptFunc.Call([]cty.Value{cty.StringVal(base64.StdEncoding.EncodeToString([]byte("garbage"))), cty.StringVal(string(pemKey))})
	if err == nil || !strings.HasPrefix(err.Error(), "failed to decrypt: ") {
		t.Errorf("bad ciphertext error = %v", err)
	}
}
