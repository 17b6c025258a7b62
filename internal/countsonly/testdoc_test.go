// Copyright The agentotel Authors
// SPDX-License-Identifier: Apache-2.0

package countsonly

import (
	"fmt"
	"strings"
)

// customerSearchResult builds a realistic tool result: a customer search with rows customers in
// a "results" array (withheld wholesale) and byID customers in a "by_id" object (shaped key by
// key), plus the usual envelope of kept fields, numbers and nested objects.
func customerSearchResult(rows, byID int) []byte {
	var b strings.Builder
	fmt.Fprintf(&b, `{"query":"acme \"north\" ltd","status":"ok","source":"crm.customers","kind":"search",`+
		`"took_ms":12.5,"total":%d,"page":{"number":1,"size":%d,"has_more":false,"cursor":null},"results":[`,
		rows+byID, rows)
	for i := range rows {
		if i > 0 {
			b.WriteByte(',')
		}
		writeCustomer(&b, i)
	}
	b.WriteString(`],"by_id":{`)
	for i := range byID {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `"cus_%05d":`, rows+i)
		writeCustomer(&b, rows+i)
	}
	b.WriteString(`},"facets":{"country":{"GB":41,"US":17,"DE":3},"tier":{"gold":4,"silver":12,"none":45}},` +
		`"summary":{"title":"Customers matching \"acme\"","description":"Search over CRM customers, newest first",` +
		`"warnings":[]},"error":null}`)
	return []byte(b.String())
}

func writeCustomer(b *strings.Builder, i int) {
	fmt.Fprintf(b, `{"id":"cus_%05d","name":"Ada Lovelace %d","email":"ada.lovelace%d@example.com",`+
		`"phone":"+44 20 7946 %04d","address":{"line1":"%d Acme Street","city":"London","postcode":"EC1A 1BB",`+
		`"country":"GB"},"tags":["vip","b2b","newsletter"],"balance":%d.%02d,"currency":"GBP",`+
		`"created_at":"2023-04-01T12:%02d:00Z","active":%t,"score":0.%03d,"notes":"Prefers email; café owner \u2014 `+
		`ünïcode \ud83d\ude00","status":"active","last_order":{"id":"ord_%d","total":%d.5e1,"items":%d,"title":"Order %d"}}`,
		i, i, i, i%10000, i, i*37%100000, i%100, i%60, i%2 == 0, i*7%1000, i, i%1000, i%9, i)
}
