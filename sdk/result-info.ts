/**
 * The paging fields of a response envelope's `result_info`, in a module of their own: the transport
 * reads them from the wire and the page loops follow them, without either importing the other.
 */
export interface ResultInfo {
  page?: number;
  per_page?: number;
  count?: number;
  total_count?: number;
  cursor?: string;
}
